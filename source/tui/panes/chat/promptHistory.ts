/**
 * The input box's history, as a shell keeps it: ↑ brings older prompts, ↓ newer ones, and past
 * the newest the text being written comes back. Entries are newest first; `index` -1 is the draft.
 * (The GraphQL pane's history.ts keeps query-and-variables pairs in a file; prompts stay with the
 * conversation they were sent in.)
 */
export interface PromptHistory {
  entries: readonly string[];
  index: number;
  draft: string;
}

export const emptyHistory: PromptHistory = {entries: [], index: -1, draft: ''};

/** After a send: the prompt on top (a repeat moves up), back at the draft. */
export function withPrompt(history: PromptHistory, prompt: string): PromptHistory {
  return {entries: [prompt, ...history.entries.filter((entry) => entry !== prompt)].slice(0, 500), index: -1, draft: ''};
}

/** One step older (+1) or newer (-1) from the text in the box; undefined at either end. */
export function recall(history: PromptHistory, step: 1 | -1, text: string): {history: PromptHistory; text: string} | undefined {
  const target = history.index + step;
  if (target < -1 || target >= history.entries.length) return undefined;
  const draft = history.index === -1 ? text : history.draft;
  return {history: {...history, index: target, draft}, text: target === -1 ? draft : history.entries[target]!};
}
