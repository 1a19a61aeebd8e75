import {join} from 'node:path';
import {workbenchHome} from '../../../core/paths.js';
import {loadKeptList, saveKeptList} from '../../history/keptList.js';

/**
 * The input box's history, as a shell keeps it: ↑ brings older prompts, ↓ newer ones, and past
 * the newest the text being written comes back. Entries are newest first; `index` -1 is the draft.
 * Kept between runs in WORKBENCH_HOME/chat-history.json (the Chat pane and `workbench agent`'s
 * inline chat share it, as shells share theirs), the same way the GraphQL pane keeps its queries.
 */
export interface PromptHistory {
  entries: readonly string[];
  index: number;
  draft: string;
}

export const emptyHistory: PromptHistory = {entries: [], index: -1, draft: ''};

/** After a send: the prompt on top (a repeat moves up), back at the draft. */
export function withPrompt(history: PromptHistory, prompt: string): PromptHistory {
  return {entries: [prompt, ...history.entries.filter((entry) => entry !== prompt)].slice(0, PROMPT_LIMIT), index: -1, draft: ''};
}

/** One step older (+1) or newer (-1) from the text in the box; undefined at either end. */
export function recall(history: PromptHistory, step: 1 | -1, text: string): {history: PromptHistory; text: string} | undefined {
  const target = history.index + step;
  if (target < -1 || target >= history.entries.length) return undefined;
  const draft = history.index === -1 ? text : history.draft;
  return {history: {...history, index: target, draft}, text: target === -1 ? draft : history.entries[target]!};
}

export const PROMPT_LIMIT = 500;
export const promptHistoryPath = (home = workbenchHome()) => join(home, 'chat-history.json');

const isPrompt = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

export function loadPrompts(path = promptHistoryPath()): {entries: string[]; problem?: string} {
  return loadKeptList(path, isPrompt, PROMPT_LIMIT, 'chat history');
}

export function savePrompts(entries: readonly string[], path = promptHistoryPath()): void {
  saveKeptList(entries, path, PROMPT_LIMIT);
}
