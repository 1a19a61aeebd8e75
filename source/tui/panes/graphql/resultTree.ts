import {toTerminalLine} from '../../../text/terminal-safe.js';

/**
 * A GraphQL answer as a tree of rows: objects and arrays open and close, scalars are one row
 * each. Nodes are named by their path (`data.album.data.3.Title`), so what the user closed stays
 * closed while they scroll. Every key and value is made terminal-safe here: they come from the
 * database.
 */
export interface TreeRow {
  path: string;
  depth: number;
  /** The object key or array index, terminal-safe; undefined at the root. */
  key?: string;
  kind: 'object' | 'array' | 'scalar';
  /** A scalar's JSON text, terminal-safe (strings quoted); a container's size `{3}` / `[20]`. */
  text: string;
  open: boolean;
}

const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] => typeof value === 'object' && value !== null;

function scalarText(value: unknown): string {
  if (value === undefined) return 'undefined';
  // A string loses its escape sequences and controls before quoting: `\u001b]0;…` is noise on screen, not data.
  if (typeof value === 'string') return JSON.stringify(toTerminalLine(value));
  return toTerminalLine(JSON.stringify(value) ?? String(value));
}

/** The rows shown: a closed container hides what it holds. `closed` holds the paths the user closed. */
export function treeRows(value: unknown, closed: ReadonlySet<string>, rootKey?: string): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (node: unknown, path: string, depth: number, key: string | undefined) => {
    if (!isContainer(node)) {
      rows.push({path, depth, key, kind: 'scalar', text: scalarText(node), open: false});
      return;
    }
    const entries: Array<[string, unknown]> = Array.isArray(node) ? node.map((item, index) => [String(index), item]) : Object.entries(node);
    const open = !closed.has(path);
    rows.push({path, depth, key, kind: Array.isArray(node) ? 'array' : 'object', text: Array.isArray(node) ? `[${entries.length}]` : `{${entries.length}}`, open});
    if (!open) return;
    for (const [childKey, child] of entries) walk(child, path ? `${path}.${childKey}` : childKey, depth + 1, toTerminalLine(childKey));
  };
  walk(value, rootKey ?? '', 0, rootKey);
  return rows;
}

/** Every container path under `value`: what "close all" closes. */
export function containerPaths(value: unknown, rootKey?: string): string[] {
  const paths: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (!isContainer(node)) return;
    paths.push(path);
    const entries = Array.isArray(node) ? node.map((item, index) => [String(index), item] as const) : Object.entries(node);
    for (const [key, child] of entries) walk(child, path ? `${path}.${key}` : key);
  };
  walk(value, rootKey ?? '');
  return paths;
}

/** One row as drawn: `▾ album {4}`, `▸ data [20]`, `  Title: "For Those About To Rock"`. */
export function treeRowText(row: TreeRow): string {
  const indent = '  '.repeat(row.depth);
  const name = row.key === undefined ? '' : `${row.key}${row.kind === 'scalar' ? ': ' : ' '}`;
  if (row.kind === 'scalar') return `${indent}  ${name}${row.text}`;
  return `${indent}${row.open ? '▾' : '▸'} ${name}${row.text}`;
}

/** The path of the container that holds `path`, or undefined at the top. */
export function parentPath(path: string): string | undefined {
  const cut = path.lastIndexOf('.');
  return cut === -1 ? undefined : path.slice(0, cut);
}
