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
  const safeKind = kind.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'answer';
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const path = join(directory, `${safeKind}-${stamp}-${Math.random().toString(36).slice(2, 8)}.${extension}`);
  writeFileAtomic(path, content, {mode: 0o600});
  pruneAnswerFiles(directory);
  return path;
}

export interface FittedAnswer {
  text: string;
  /** Set when the whole answer went to a file. */
  file?: string;
}

/**
 * `text` when it fits the budget (or there is none: the CLI prints everything); otherwise the
 * summary, with the path of a file holding `whole`.
 */
export function fitOrFile(text: string, options: {budget?: number; kind: string; summary: () => string; whole: () => string; extension?: 'json' | 'txt'}): FittedAnswer {
  if (options.budget === undefined || text.length <= options.budget) return {text};
  const whole = options.whole();
  const file = writeAnswerFile(options.kind, whole, options.extension);
  return {text: `${options.summary().trimEnd()}\n[the whole answer, ${whole.length.toLocaleString('en')} characters, is in ${file}]\n`.trimStart(), file};
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
