import {useRef, useState} from 'react';
import {useKeypress} from './useKeypress.js';
import {Command, matchesCommand} from '../key/keyBindings.js';
import {useTextInput} from './useTextInput.js';
import {KeyPriority} from '../key/keyPriority.js';
import type {EditorState} from '../panes/graphql/editorModel.js';

export interface FilterInputState {
  /** The filter the list applies now: the draft while typing, else the applied text. */
  text: string;
  editing: boolean;
  draft: string;
  /** The draft with its cursor, for the input line. */
  input: EditorState;
  open(): void;
  clear(): void;
}

/**
 * A one-line filter: `open()` starts editing; while editing every key belongs to the input
 * (so `q` types a q), Enter keeps the text, Esc clears it. The text is the one text input's.
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
  const [applied, setApplied] = useState('');
  const input = useTextInput(
    (text) => {
      setApplied(text);
      setEditing(false);
    },
    {singleLine: true},
  );

  useKeypress(
    (press) => {
      if (!editingRef.current) return false;
      if (matchesCommand(Command.INPUT_CANCEL, press)) {
        input.set('');
        setApplied('');
        setEditing(false);
      } else input.handle(press);
      return true;
    },
    {isActive, priority: KeyPriority.INPUT},
  );

  const draft = input.state.lines.join(' ');
  return {
    text: editing ? draft : applied,
    editing,
    draft,
    input: input.state,
    open: () => {
      input.set(applied);
      setEditing(true);
    },
    clear: () => {
      input.set('');
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
