import {join} from 'node:path';
import {workbenchHome} from '../../../core/paths.js';
import {loadKeptList, saveKeptList} from '../../history/keptList.js';

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

/** The kept queries, newest first; an unreadable file is moved aside (see keptList.ts). */
export function loadHistory(path = historyPath()): {entries: HistoryEntry[]; problem?: string} {
  return loadKeptList(path, isEntry, HISTORY_LIMIT, 'query history');
}

/** The history with `entry` on top: the same query and variables run again move up instead of repeating. */
export function withEntry(entries: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  return [entry, ...entries.filter((old) => old.query !== entry.query || old.variables !== entry.variables)].slice(0, HISTORY_LIMIT);
}

export function saveHistory(entries: readonly HistoryEntry[], path = historyPath()): void {
  saveKeptList(entries, path, HISTORY_LIMIT);
}
