import {useEffect, useRef, useState} from 'react';
import {describeError} from '../../../core/errors.js';
import type {Keypress} from '../../key/keyBindings.js';
import {editorActionForKey, editorFromText, editorReducer, editorText, type EditorState} from '../graphql/editorModel.js';
import {emptyHistory, loadPrompts, recall, savePrompts, withPrompt, type PromptHistory} from './promptHistory.js';

export interface PromptInput {
  state: EditorState;
  /** The kept history could not be read or written (said once, the box works on). */
  problem: string | undefined;
  text(): string;
  set(text: string): void;
  /** Handles an editing key; Enter submits, ↑ on the first line / ↓ on the last walk the history. False: not an editing key. */
  handle(press: Keypress): boolean;
}

/**
 * The text of an input box: the GraphQL editor's model (Ctrl-A/E/K/U as in a shell, pastes
 * kept whole), with Enter sending instead of breaking the line; `onSubmit` returning false keeps the text. Keys can come faster than frames,
 * so each reads and writes the text through a ref.
 */
export function usePromptInput(onSubmit: (text: string) => boolean | void, options: {history?: boolean} = {}): PromptInput {
  const [state, setState] = useState<EditorState>(() => editorFromText(''));
  const ref = useRef(state);
  const [problem, setProblem] = useState<string>();
  const history = useRef<PromptHistory>(emptyHistory);
  // The kept messages, read once when the box first shows.
  useEffect(() => {
    if (options.history === false) return;
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
    set: (text) => set(editorFromText(text)),
    handle(press) {
      const current = ref.current;
      if (press.name === 'return' && !press.paste && !press.shift && !press.meta) {
        const text = editorText(current);
        // Refused (a turn is still running): the text stays in the box.
        if (!text.trim() || onSubmit(text) === false) return true;
        if (options.history !== false) {
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
      if (options.history !== false && press.name === 'up' && current.row === 0) return (walk(1), true);
      if (options.history !== false && press.name === 'down' && current.row === current.lines.length - 1) return (walk(-1), true);
      const action = editorActionForKey(press, 1);
      if (!action || action.type === 'pageUp' || action.type === 'pageDown') return false;
      set(editorReducer(current, action));
      return true;
    },
  };
}
