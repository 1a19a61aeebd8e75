import type {Keypress} from '../../key/keyBindings.js';

/**
 * A multi-line text editor as a pure reducer: the GraphQL pane's query and variables boxes. The
 * state is the lines and a cursor (row, column in code units); `goal` is the column ↑/↓ aim for
 * across shorter lines, as every editor keeps it.
 */
export interface EditorState {
  lines: string[];
  row: number;
  col: number;
  goal?: number;
}

export type EditorAction =
  | {type: 'insert'; text: string}
  | {type: 'newline'}
  | {type: 'backspace'}
  | {type: 'delete'}
  | {type: 'left' | 'right' | 'up' | 'down' | 'lineStart' | 'lineEnd' | 'docStart' | 'docEnd'}
  | {type: 'pageUp' | 'pageDown'; rows: number}
  | {type: 'killToEnd' | 'killToStart'}
  | {type: 'set'; text: string}
  /** Replaces `before` code units left of the cursor and `after` right of it with `text` (a completion). */
  | {type: 'replaceAround'; before: number; after: number; text: string};

const INDENT = '  ';

export function editorFromText(text: string): EditorState {
  const lines = normalise(text).split('\n');
  const row = lines.length - 1;
  return {lines, row, col: lines[row]!.length};
}

export function editorText(state: EditorState): string {
  return state.lines.join('\n');
}

/** Line breaks of any platform become \n, a tab two spaces; other control characters go (a paste may hold them). */
function normalise(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, INDENT)
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '');
}

const clampRow = (state: EditorState, row: number) => Math.max(0, Math.min(state.lines.length - 1, row));

function moveVertically(state: EditorState, step: number): EditorState {
  const goal = state.goal ?? state.col;
  const row = clampRow(state, state.row + step);
  // Past the first or last line: to its start or end, as text fields do.
  if (row === state.row) return {...state, col: step < 0 ? 0 : state.lines[row]!.length, goal: undefined};
  return {...state, row, col: Math.min(goal, state.lines[row]!.length), goal};
}

function insertText(state: EditorState, raw: string): EditorState {
  const text = normalise(raw);
  if (!text) return state;
  const line = state.lines[state.row]!;
  const pieces = (line.slice(0, state.col) + text + line.slice(state.col)).split('\n');
  const inserted = text.split('\n');
  const row = state.row + inserted.length - 1;
  const col = inserted.length === 1 ? state.col + text.length : inserted[inserted.length - 1]!.length;
  const lines = [...state.lines.slice(0, state.row), ...pieces, ...state.lines.slice(state.row + 1)];
  return {lines, row, col};
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  const line = state.lines[state.row]!;
  switch (action.type) {
    case 'insert':
      // A closing brace typed on a blank line goes back one level, to its opening line's indentation.
      if (/^[})\]]$/.test(action.text) && /^ {2,}$/.test(line.slice(0, state.col)) && line.slice(state.col).trim() === '') {
        const lines = [...state.lines];
        lines[state.row] = line.slice(INDENT.length);
        return insertText({lines, row: state.row, col: state.col - INDENT.length}, action.text);
      }
      return insertText(state, action.text);
    case 'newline': {
      // The new line starts at the indentation of the one it breaks, one level deeper after an opening brace.
      const indent = /^\s*/.exec(line)![0] + (/[{([]\s*$/.test(line.slice(0, state.col)) ? INDENT : '');
      return insertText(state, '\n' + indent);
    }
    case 'backspace': {
      if (state.col > 0) {
        const lines = [...state.lines];
        lines[state.row] = line.slice(0, state.col - 1) + line.slice(state.col);
        return {lines, row: state.row, col: state.col - 1};
      }
      if (state.row === 0) return state;
      const previous = state.lines[state.row - 1]!;
      const lines = [...state.lines.slice(0, state.row - 1), previous + line, ...state.lines.slice(state.row + 1)];
      return {lines, row: state.row - 1, col: previous.length};
    }
    case 'delete': {
      if (state.col < line.length) {
        const lines = [...state.lines];
        lines[state.row] = line.slice(0, state.col) + line.slice(state.col + 1);
        return {...state, lines, goal: undefined};
      }
      if (state.row === state.lines.length - 1) return state;
      const lines = [...state.lines.slice(0, state.row), line + state.lines[state.row + 1]!, ...state.lines.slice(state.row + 2)];
      return {...state, lines, goal: undefined};
    }
    case 'left':
      if (state.col > 0) return {...state, col: state.col - 1, goal: undefined};
      return state.row > 0 ? {...state, row: state.row - 1, col: state.lines[state.row - 1]!.length, goal: undefined} : state;
    case 'right':
      if (state.col < line.length) return {...state, col: state.col + 1, goal: undefined};
      return state.row < state.lines.length - 1 ? {...state, row: state.row + 1, col: 0, goal: undefined} : state;
    case 'up':
      return moveVertically(state, -1);
    case 'down':
      return moveVertically(state, 1);
    case 'pageUp':
      return moveVertically(state, -Math.max(1, action.rows));
    case 'pageDown':
      return moveVertically(state, Math.max(1, action.rows));
    case 'lineStart': {
      // Home goes to the first non-blank character, then to column 0.
      const indent = /^\s*/.exec(line)![0].length;
      return {...state, col: state.col === indent ? 0 : indent, goal: undefined};
    }
    case 'lineEnd':
      return {...state, col: line.length, goal: undefined};
    case 'docStart':
      return {...state, row: 0, col: 0, goal: undefined};
    case 'docEnd':
      return {...state, row: state.lines.length - 1, col: state.lines[state.lines.length - 1]!.length, goal: undefined};
    case 'killToEnd': {
      if (state.col === line.length) return editorReducer(state, {type: 'delete'});
      const lines = [...state.lines];
      lines[state.row] = line.slice(0, state.col);
      return {...state, lines, goal: undefined};
    }
    case 'killToStart': {
      const lines = [...state.lines];
      lines[state.row] = line.slice(state.col);
      return {lines, row: state.row, col: 0};
    }
    case 'set':
      return editorFromText(action.text);
    case 'replaceAround': {
      const start = Math.max(0, state.col - action.before);
      const lines = [...state.lines];
      lines[state.row] = line.slice(0, start) + line.slice(state.col + action.after);
      return insertText({lines, row: state.row, col: start}, action.text);
    }
  }
}

/**
 * What a key does to the text, or undefined when it is not an editing key (Esc, Tab, Ctrl-R… are
 * the pane's). Emacs' Ctrl-A/E/K/U work as in a shell.
 */
export function editorActionForKey(press: Keypress, pageRows: number): EditorAction | undefined {
  if (press.paste) return {type: 'insert', text: press.input};
  switch (press.name) {
    case 'return':
      return {type: 'newline'};
    case 'backspace':
      return {type: 'backspace'};
    case 'delete':
      return {type: 'delete'};
    case 'left':
    case 'right':
    case 'up':
    case 'down':
      return press.meta ? undefined : {type: press.name};
    case 'home':
      return {type: press.ctrl ? 'docStart' : 'lineStart'};
    case 'end':
      return {type: press.ctrl ? 'docEnd' : 'lineEnd'};
    case 'pageup':
      return {type: 'pageUp', rows: pageRows};
    case 'pagedown':
      return {type: 'pageDown', rows: pageRows};
    case undefined:
      break;
    default:
      return undefined;
  }
  if (press.meta) return undefined;
  if (press.ctrl) {
    if (press.input === 'a') return {type: 'lineStart'};
    if (press.input === 'e') return {type: 'lineEnd'};
    if (press.input === 'k') return {type: 'killToEnd'};
    if (press.input === 'u') return {type: 'killToStart'};
    if (press.input === 'd') return {type: 'delete'};
    return undefined;
  }
  return press.input ? {type: 'insert', text: press.input} : undefined;
}

/** The first row and column to draw so the cursor stays in a `rows`×`columns` window, moving it as little as it can. */
export function editorWindow(state: EditorState, rows: number, columns: number, previous: {top: number; left: number}): {top: number; left: number} {
  let top = Math.min(previous.top, Math.max(0, state.lines.length - rows));
  if (state.row < top) top = state.row;
  if (state.row >= top + rows) top = state.row - rows + 1;
  // One column is kept for the cursor past the end of the line.
  let left = previous.left;
  if (state.col < left) left = Math.max(0, state.col - Math.floor(columns / 4));
  if (state.col >= left + columns) left = state.col - columns + 1;
  return {top: Math.max(0, top), left: Math.max(0, left)};
}
