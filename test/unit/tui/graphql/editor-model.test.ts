import {describe, expect, it} from 'vitest';
import {KeySplitter} from '../../../../source/tui/key/keySequences.js';
import {editorActionForKey, editorFromText, editorReducer, editorText, editorWindow, type EditorState} from '../../../../source/tui/panes/graphql/editorModel.js';

// Keys as the terminal sends them, through the app's own splitter, into the reducer.
function typeKeys(state: EditorState, ...raw: string[]): EditorState {
  const splitter = new KeySplitter();
  let current = state;
  for (const chunk of raw) {
    for (const press of splitter.push(chunk)) {
      const action = editorActionForKey(press, 5);
      if (action) current = editorReducer(current, action);
    }
  }
  return current;
}

const empty = () => editorFromText('');
const at = (state: EditorState) => [state.row, state.col];

describe('the query editor model (keys → text and cursor)', () => {
  it('types, breaks lines with the indentation of the line (deeper after {), and joins them with backspace', () => {
    let state = typeKeys(empty(), '{', '\r', 'album', ' ', '{', '\r', 'Title');
    expect(editorText(state)).toBe('{\n  album {\n    Title');
    expect(at(state)).toEqual([2, 9]);
    state = typeKeys(state, '\r', '}');
    expect(editorText(state)).toBe('{\n  album {\n    Title\n  }');
    // Backspace at a line's start joins it to the line above.
    state = typeKeys(state, '\u001b[H', '\u001b[H', '\u007f');
    expect(editorText(state)).toBe('{\n  album {\n    Title  }');
    expect(at(state)).toEqual([2, 9]);
  });

  it('moves the cursor with arrows, keeping the goal column across short lines; home goes to the indent, then column 0', () => {
    let state = editorFromText('query {\n  a\n  albumTitle\n}');
    state = {...state, row: 0, col: 6};
    state = typeKeys(state, '\u001b[B');
    expect(at(state)).toEqual([1, 3]);
    state = typeKeys(state, '\u001b[B');
    expect(at(state)).toEqual([2, 6]);
    state = typeKeys(state, '\u001b[H');
    expect(at(state)).toEqual([2, 2]);
    state = typeKeys(state, '\u001b[H');
    expect(at(state)).toEqual([2, 0]);
    state = typeKeys(state, '\u001b[F');
    expect(at(state)).toEqual([2, 12]);
    // → at the end of a line goes to the next one; ← at the start to the end of the previous.
    state = typeKeys(state, '\u001b[C');
    expect(at(state)).toEqual([3, 0]);
    state = typeKeys(state, '\u001b[D');
    expect(at(state)).toEqual([2, 12]);
    // ↑ on the first line goes to its start, ↓ on the last to its end.
    state = typeKeys({...state, row: 0, col: 3}, '\u001b[A');
    expect(at(state)).toEqual([0, 0]);
    state = typeKeys(state, '\u001b[F', '\u001b[6~', '\u001b[6~');
    expect(at(state)).toEqual([3, 1]);
  });

  it('deletes forward, joins lines with delete at the end, and kills to the end or start of the line (ctrl-k, ctrl-u)', () => {
    let state = {...editorFromText('abc\ndef'), row: 0, col: 1};
    state = typeKeys(state, '\u001b[3~');
    expect(editorText(state)).toBe('ac\ndef');
    state = typeKeys(state, '\u0005', '\u001b[3~');
    expect(editorText(state)).toBe('acdef');
    state = typeKeys({...state, col: 2}, '\u000b');
    expect(editorText(state)).toBe('ac');
    state = typeKeys(state, '\u0015');
    expect(editorText(state)).toBe('');
    expect(at(state)).toEqual([0, 0]);
  });

  it('takes a bracketed paste as one insert: line breaks of any kind, tabs as two spaces, no control characters', () => {
    const state = typeKeys(editorFromText('x'), '\u001b[200~{\r\n\talbum\u0007 {\rTitle }\n}\u001b[201~');
    expect(editorText(state)).toBe('x{\n  album {\nTitle }\n}');
    expect(at(state)).toEqual([3, 1]);
  });

  it('leaves Tab, Esc, Ctrl-R and Alt+key to the pane', () => {
    const splitter = new KeySplitter();
    for (const raw of ['\t', '\u001b', '\u0012', '\u001bx', '\u001b[Z']) {
      const [press] = splitter.push(raw);
      expect(editorActionForKey(press!, 5), JSON.stringify(raw)).toBeUndefined();
    }
  });

  it('replaces the word around the cursor (a completion)', () => {
    const state = {...editorFromText('{ alb(x) }'), col: 5};
    const next = editorReducer(state, {type: 'replaceAround', before: 3, after: 0, text: 'album'});
    expect(editorText(next)).toBe('{ album(x) }');
    expect(at(next)).toEqual([0, 7]);
  });

  it('keeps the cursor in the window: long texts scroll down and up, long lines slide', () => {
    const long = editorFromText(Array.from({length: 30}, (_, index) => `line ${index}`).join('\n'));
    let window = editorWindow(long, 10, 20, {top: 0, left: 0});
    expect(window.top).toBe(20);
    window = editorWindow({...long, row: 15, col: 0}, 10, 20, window);
    expect(window.top).toBe(15);
    window = editorWindow({...long, row: 18, col: 0}, 10, 20, window);
    expect(window.top).toBe(15);
    const wide = editorFromText('x'.repeat(50));
    expect(editorWindow(wide, 5, 20, {top: 0, left: 0}).left).toBe(31);
    expect(editorWindow({...wide, col: 0}, 5, 20, {top: 0, left: 31}).left).toBe(0);
  });
});
