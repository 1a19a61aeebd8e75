import {readFileSync, renameSync} from 'node:fs';
import {dirname} from 'node:path';
import {writeFileAtomic} from '../../core/atomic-write.js';
import {describeError} from '../../core/errors.js';
import {ensureDirectory} from '../../core/paths.js';

/**
 * A list the TUI keeps between runs under WORKBENCH_HOME, newest first (the GraphQL pane's
 * queries, the chat's messages). A file that cannot be read as one (cut short, edited by hand)
 * does not stop the pane: it is moved aside to `<file>.bad`, the list starts empty, and
 * `problem` says so, naming the list (`what`).
 */
export function loadKeptList<T>(path: string, isEntry: (value: unknown) => value is T, limit: number, what: string): {entries: T[]; problem?: string} {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {entries: []};
    return {entries: [], problem: `${what} not read (${describeError(error)})`};
  }
  try {
    const parsed = JSON.parse(text) as {entries?: unknown};
    if (!Array.isArray(parsed.entries)) throw new Error('no "entries" list');
    return {entries: parsed.entries.filter(isEntry).slice(0, limit)};
  } catch (error) {
    const aside = `${path}.bad`;
    let kept = '';
    try {
      renameSync(path, aside);
      kept = `; the file was kept as ${aside}`;
    } catch {
      // Left where it is: the next save replaces it.
    }
    return {entries: [], problem: `${what} ${path} is unreadable (${describeError(error)}): starting a new one${kept}`};
  }
}

/** Written whole or not at all (temp name, then rename), 0600 like every file under WORKBENCH_HOME. */
export function saveKeptList<T>(entries: readonly T[], path: string, limit: number): void {
  ensureDirectory(dirname(path));
  writeFileAtomic(path, JSON.stringify({version: 1, entries: entries.slice(0, limit)}, null, 2) + '\n');
}
