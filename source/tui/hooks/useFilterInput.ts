import {useRef, useState} from 'react';
import {useKeypress} from './useKeypress.js';
import {KeyPriority} from '../key/keyPriority.js';
import {typedText} from '../key/keyBindings.js';

export interface FilterInputState {
  /** The filter the list applies now: the draft while typing, else the applied text. */
  text: string;
  editing: boolean;
  draft: string;
  open(): void;
  clear(): void;
}

/**
 * A one-line filter: `open()` starts editing; while editing every key belongs to the input
 * (so `q` types a q), Enter keeps the text, Esc clears it.
 */
export function useFilterInput(isActive: boolean): FilterInputState {
  const [editing, setEditingState] = useState(false);
  // Whether the input has the keys, as the last key left it: `/` then `q` before the next render
  // must type a q, not quit.
  const editingRef = useRef(false);
  const setEditing = (next: boolean) => {
    editingRef.current = next;
    setEditingState(next);
  };
  const [draft, setDraftState] = useState('');
  const [applied, setApplied] = useState('');
  // The draft as the keys left it: a key and Enter that come before the next render (fast
  // typing, a paste) must apply every character, not the draft of the last render.
  const draftRef = useRef('');
  const setDraft = (next: string) => {
    draftRef.current = next;
    setDraftState(next);
  };

  useKeypress(
    (press) => {
      if (!editingRef.current) return false;
      if (press.name === 'return') {
        setApplied(draftRef.current);
        setEditing(false);
      } else if (press.name === 'escape') {
        setDraft('');
        setApplied('');
        setEditing(false);
      } else if (press.name === 'backspace' || press.name === 'delete') {
        setDraft(draftRef.current.slice(0, -1));
      } else if (press.ctrl && press.input === 'u') {
        setDraft('');
      } else {
        const text = typedText(press);
        if (text) setDraft(draftRef.current + text);
      }
      return true;
    },
    {isActive, priority: KeyPriority.INPUT},
  );

  return {
    text: editing ? draft : applied,
    editing,
    draft,
    open: () => {
      setDraft(applied);
      setEditing(true);
    },
    clear: () => {
      setDraft('');
      setApplied('');
      setEditing(false);
    },
  };
}

/** Case-insensitive match of a filter against any of the given fields. */
export function matchesFilter(filter: string, ...fields: Array<string | undefined>): boolean {
  const needle = filter.trim().toLowerCase();
  if (!needle) return true;
  return fields.some((field) => field !== undefined && field.toLowerCase().includes(needle));
}
