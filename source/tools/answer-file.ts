import {readdirSync, rmSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {writeFileAtomic} from '../core/atomic-write.js';
import {ensureDirectory, workbenchHome} from '../core/paths.js';

/**
 * Heavy answers (a long traffic log, a DOM snapshot, an exec result that is a whole document):
 * the whole thing goes to a file under WORKBENCH_HOME/answers, the answer carries a summary and
 * the path, so an agent reads the part it needs instead of paying for all of it (issue 8 item 11).
 */

/** Answer files kept; older ones go when a new one is written. */
const KEEP_FILES = 100;

export function answersDirectory(): string {
  return join(workbenchHome(), 'answers');
}

/** Writes `content` whole (0600, atomically) and returns its path. `kind` names the file: `proxylog-app`. */
export function writeAnswerFile(kind: string, content: string, extension: 'json' | 'txt' = 'json'): string {
  const directory = ensureDirectory(answersDirectory());
  // No dots: a kind can neither climb out of the folder nor hide a file from the pruning.
  const safeKind = kind.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 80) || 'answer';
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const path = join(directory, `${safeKind}-${stamp}-${Math.random().toString(36).slice(2, 8)}.${extension}`);
  writeFileAtomic(path, content, {mode: 0o600});
  pruneAnswerFiles(directory);
  return path;
}

/**
 * When `text` is longer than the budget, writes `whole()` to a file and returns its path, so the
 * answer can carry a summary and the path; undefined when it fits or there is no budget (the CLI
 * prints everything).
 */
export function fileIfTooLong(text: string, options: {budget?: number; kind: string; whole: () => string; extension?: 'json' | 'txt'}): string | undefined {
  if (options.budget === undefined || text.length <= options.budget) return undefined;
  return writeAnswerFile(options.kind, options.whole(), options.extension);
}

/** The budget a tool's own text may use, leaving room for the lines the MCP server adds (notes, hints). */
export function answerRoom(context: {budget?: number}): number | undefined {
  return context.budget === undefined ? undefined : Math.max(1000, context.budget - 1000);
}

function pruneAnswerFiles(directory: string): void {
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => !name.startsWith('.'));
  } catch {
    return;
  }
  if (names.length <= KEEP_FILES) return;
  const byAge = names
    .map((name) => {
      try {
        return {name, mtime: statSync(join(directory, name)).mtimeMs};
      } catch {
        return {name, mtime: 0};
      }
    })
    .sort((a, b) => a.mtime - b.mtime);
  for (const {name} of byAge.slice(0, names.length - KEEP_FILES)) rmSync(join(directory, name), {force: true});
}
