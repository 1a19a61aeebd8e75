import {existsSync, realpathSync} from 'node:fs';
import {dirname, join, resolve} from 'node:path';
import {WorkbenchError} from '../core/errors.js';
import {workbenchHome} from '../core/paths.js';

/** What makes a folder a project root (detect reads the same files). */
const MARKERS = ['.workbench.kdl', 'package.json', 'go.mod', 'pyproject.toml', 'Pipfile', 'manage.py', 'Makefile', 'GNUmakefile', 'makefile', '.git'];

/**
 * The project a caller works in: the nearest folder from `cwd` up that holds a project file, or
 * `cwd` itself when none does; realpath'd, so two paths through a symlink are one project. The
 * daemon keys processes by it (see processes/project-key.ts).
 */
export function projectRoot(cwd?: string): string {
  const start = realPath(cwd ?? currentFolder());
  for (let folder = start; ; folder = dirname(folder)) {
    if (MARKERS.some((marker) => existsSync(join(folder, marker)))) return folder;
    if (dirname(folder) === folder) return start;
  }
}

/** The workbench home's own project: the services the TUI starts for the home (the feed reader) live there, seen from every project. */
export function homeProject(): string {
  return realPath(workbenchHome());
}

/** realpath when the folder is there; a removed folder keeps its absolute path (its processes are still known by it). */
export function realPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** `process.cwd()`, or one clear error when the folder was removed under the caller. */
export function currentFolder(): string {
  try {
    return process.cwd();
  } catch {
    throw new WorkbenchError('not_found', `the current folder no longer exists${process.env.PWD ? ` (${process.env.PWD})` : ''}: cd to a project folder`);
  }
}
