import {useEffect, useRef, useState} from 'react';
import {describeError} from '../../core/errors.js';
import type {Keypress} from '../key/keyBindings.js';
import {editorActionForKey, editorFromText, editorReducer, editorText, type EditorAction, type EditorState} from '../panes/graphql/editorModel.js';
import {emptyHistory, loadPrompts, recall, savePrompts, withPrompt, type PromptHistory} from '../panes/chat/promptHistory.js';

export interface TextInput {
  state: EditorState;
  /** The kept history could not be read or written (said once, the box works on). */
  problem: string | undefined;
  /** The text as the last key left it (not the last frame's). */
  text(): string;
  /** The text and cursor as the last key left them. */
  current(): EditorState;
  set(text: string): void;
  /** An edit the box's owner makes (a completion, an indent): applied to what the last key left. */
  edit(action: EditorAction): void;
  /** Handles an editing key; Enter submits, ↑ on the first line / ↓ on the last walk the history. False: not an editing key. */
  handle(press: Keypress): boolean;
}

export interface TextInputOptions {
  /** One line (a feed URL, a filter, a snippet): a paste stops at its first line break and submits, Shift-Enter submits too. */
  singleLine?: boolean;
  /** The chat prompt's kept history (↑/↓ recall, saved in WORKBENCH_HOME). */
  history?: boolean;
  /** The text and cursor it starts with. */
  initial?: () => EditorState;
}

/**
 * The one text input of the TUI: every box that takes typed text (chat, the agent command,
 * the feeds add and snooze prompts, a new list's title, the list filters, proxy exec) holds its
 * text here. The GraphQL editor's model gives Ctrl-A/E/K/U as in a shell and pastes kept whole;
 * Enter calls `onSubmit` with the text, and clears it unless `onSubmit` returns false; without
 * `onSubmit` (the GraphQL query and variables) Enter breaks the line.
 *
 * Keys come faster than frames (a paste, `send-keys 'text' Enter`, fast typing): each key is
 * handed over before React has rendered what the one before it did, so the text lives in a ref
 * that every key reads and writes, and Enter submits what the keys left, never the last frame's
 * state (which would lose the last characters).
 */
export function useTextInput(onSubmit: ((text: string) => boolean | void) | undefined, options: TextInputOptions = {}): TextInput {
  const [state, setState] = useState<EditorState>(options.initial ?? (() => editorFromText('')));
  const ref = useRef(state);
  const [problem, setProblem] = useState<string>();
  const history = useRef<PromptHistory>(emptyHistory);
  // The kept messages, read once when the box first shows.
  useEffect(() => {
    if (!options.history) return;
    const loaded = loadPrompts();
    history.current = {...history.current, entries: loaded.entries};
    setProblem(loaded.problem);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const set = (next: EditorState) => {
    ref.current = next;
    setState(next);
  };
  const walk = (step: 1 | -1) => {
    const found = recall(history.current, step, editorText(ref.current));
    if (!found) return;
    history.current = found.history;
    set(editorFromText(found.text));
  };
  return {
    state,
    problem,
    text: () => editorText(ref.current),
    current: () => ref.current,
    edit: (action) => set(editorReducer(ref.current, action)),
    set: (text) => set(editorFromText(options.singleLine ? oneLine(text) : text)),
    handle(press) {
      // A one-line box takes a pasted line break as Enter: the line before it is submitted.
      if (options.singleLine && press.paste && /[\r\n]/.test(press.input)) {
        const [line = ''] = press.input.split(/[\r\n]/);
        if (line) set(editorReducer(ref.current, {type: 'insert', text: oneLine(line)}));
        press = {input: '', name: 'return', ctrl: false, shift: false, meta: false};
      }
      const current = ref.current;
      if (onSubmit && press.name === 'return' && !press.paste && (options.singleLine || (!press.shift && !press.meta))) {
        const text = editorText(current);
        // Refused (a turn is still running, nothing typed): the text stays in the box.
        if (onSubmit(text) === false) return true;
        if (options.history) {
          history.current = withPrompt(history.current, text);
          try {
            savePrompts(history.current.entries);
          } catch (error) {
            setProblem(`chat history not saved: ${describeError(error)}`);
          }
        }
        set(editorFromText(''));
        return true;
      }
      if (options.history && press.name === 'up' && current.row === 0) return (walk(1), true);
      if (options.history && press.name === 'down' && current.row === current.lines.length - 1) return (walk(-1), true);
      const action = editorActionForKey(press, 1);
      if (!action || action.type === 'pageUp' || action.type === 'pageDown') return false;
      if (options.singleLine && action.type === 'newline') return true;
      set(editorReducer(current, action));
      return true;
    },
  };
}

/** A one-line box: line breaks and tabs become spaces. */
function oneLine(text: string): string {
  return text.replace(/\r\n|[\r\n\t]/g, ' ');
}
