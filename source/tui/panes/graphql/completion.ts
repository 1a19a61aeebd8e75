import type {GraphQLSchema} from 'graphql';
import {getAutocompleteSuggestions, Position} from 'graphql-language-service';
import {editorText, type EditorAction, type EditorState} from './editorModel.js';

export interface Completion {
  label: string;
  /** The field's type (`[Album]`, `Int`), or the suggestion's kind when it has none. */
  detail: string;
}

const WORD_CHAR = /[_A-Za-z0-9]/;

/** The identifier the cursor is in: how far it reaches left and right of the cursor. */
export function wordAround(state: EditorState): {before: string; after: string} {
  const line = state.lines[state.row] ?? '';
  let start = state.col;
  while (start > 0 && WORD_CHAR.test(line[start - 1]!)) start--;
  let end = state.col;
  while (end < line.length && WORD_CHAR.test(line[end]!)) end++;
  return {before: line.slice(start, state.col), after: line.slice(state.col, end)};
}

/**
 * What may be typed at the cursor, from the schema: graphql-language-service's
 * getAutocompleteSuggestions (the engine GraphiQL uses) on the whole text at the cursor's
 * position. It matches loosely (`T` offers `artist`); names that start with what is typed come
 * first, then the rest in the schema's order; `__typename` and friends last.
 */
export function completionsAt(schema: GraphQLSchema, state: EditorState): Completion[] {
  const {before} = wordAround(state);
  const suggestions = getAutocompleteSuggestions(schema, editorText(state), new Position(state.row, state.col));
  const prefix = before.toLowerCase();
  const rank = (label: string) => (label.startsWith('__') ? 2 : label.toLowerCase().startsWith(prefix) ? 0 : 1);
  const seen = new Set<string>();
  return suggestions
    .filter((item) => !seen.has(item.label) && seen.add(item.label))
    .map((item, index) => ({item, index}))
    .sort((a, b) => rank(a.item.label) - rank(b.item.label) || a.index - b.index)
    .map(({item}) => ({label: item.label, detail: item.detail ?? (item.type ? String(item.type) : '')}));
}

/** The edit that puts a completion in place of the word at the cursor. */
export function completionEdit(state: EditorState, completion: Completion): EditorAction {
  const {before, after} = wordAround(state);
  return {type: 'replaceAround', before: before.length, after: after.length, text: completion.label};
}
