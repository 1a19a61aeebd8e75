import {readFileSync, renameSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {writeFileAtomic} from '../../../core/atomic-write.js';
import {describeError} from '../../../core/errors.js';
import {ensureDirectory, workbenchHome} from '../../../core/paths.js';

/** One query the user ran, with the variables it ran with. */
export interface HistoryEntry {
  query: string;
  variables: string;
  at: string;
}

/** Kept: the newest this many; older ones drop off. */
export const HISTORY_LIMIT = 200;
export const HISTORY_FILE = 'gql-history.json';

export function historyPath(home = workbenchHome()): string {
  return join(home, HISTORY_FILE);
}

const isEntry = (value: unknown): value is HistoryEntry =>
  typeof value === 'object' && value !== null && typeof (value as HistoryEntry).query === 'string' && typeof (value as HistoryEntry).variables === 'string';

/**
 * The kept queries, newest first. A file that cannot be read as a history (cut short, edited by
 * hand) does not stop the pane: it is moved aside to `gql-history.json.bad`, the history starts
 * empty, and `problem` says so.
 */
export function loadHistory(path = historyPath()): {entries: HistoryEntry[]; problem?: string} {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {entries: []};
    return {entries: [], problem: `query history not read (${describeError(error)})`};
  }
  try {
    const parsed = JSON.parse(text) as {entries?: unknown};
    if (!Array.isArray(parsed.entries)) throw new Error('no "entries" list');
    return {entries: parsed.entries.filter(isEntry).slice(0, HISTORY_LIMIT)};
  } catch (error) {
    const aside = `${path}.bad`;
    let kept = '';
    try {
      renameSync(path, aside);
      kept = `; the file was kept as ${aside}`;
    } catch {
      // Left where it is: the next save replaces it.
    }
    return {entries: [], problem: `query history ${path} is unreadable (${describeError(error)}): starting a new one${kept}`};
  }
}

/** The history with `entry` on top: the same query and variables run again move up instead of repeating. */
export function withEntry(entries: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  return [entry, ...entries.filter((old) => old.query !== entry.query || old.variables !== entry.variables)].slice(0, HISTORY_LIMIT);
}

/** Written whole or not at all (temp name, then rename), 0600 like every file under WORKBENCH_HOME. */
export function saveHistory(entries: readonly HistoryEntry[], path = historyPath()): void {
  ensureDirectory(dirname(path));
  writeFileAtomic(path, JSON.stringify({version: 1, entries: entries.slice(0, HISTORY_LIMIT)}, null, 2) + '\n');
}
