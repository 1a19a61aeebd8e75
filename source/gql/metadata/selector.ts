import type {DbTable} from '../types.js';
import {ROOT_SELECTOR} from './keys.js';

/**
 * A selector (spec 3, "Selector shape"): `:root`, `schema.table` or `schema.table.column`, each
 * part a pattern where `*` matches any run of characters and every other character — regex
 * metacharacters included — only itself; a table selector may end in `|has(<column>)` (several
 * may follow each other). Names compare case-insensitively, as upstream's do.
 */
export type Selector =
  {kind: 'root'} | {kind: 'table'; schema: string; table: string; has: string[]} | {kind: 'column'; schema: string; table: string; column: string; has: string[]};

export function parseSelector(text: string): Selector | {error: string} {
  const trimmed = text.trim();
  if (trimmed === ROOT_SELECTOR) return {kind: 'root'};
  const has: string[] = [];
  let rest = trimmed;
  for (;;) {
    const match = /\|has\(([^()|]*)\)$/i.exec(rest);
    if (!match) break;
    if (match[1].trim() === '') return {error: 'has() names no column'};
    has.unshift(match[1].trim());
    rest = rest.slice(0, match.index);
  }
  if (rest.includes('|') || rest.includes('(') || rest.includes(')')) return {error: 'only "|has(<column>)" may follow a table selector'};
  const parts = rest.split('.');
  if (parts.some((part) => part.trim() === '')) return {error: 'a part is empty (selectors read schema.table or schema.table.column)'};
  if (parts.length === 2) return {kind: 'table', schema: parts[0].trim(), table: parts[1].trim(), has};
  if (parts.length === 3) return {kind: 'column', schema: parts[0].trim(), table: parts[1].trim(), column: parts[2].trim(), has};
  return {error: 'selectors read :root, schema.table or schema.table.column'};
}

/**
 * Wildcard matching with `*` only, case-insensitive, in linear time per star (no regex is built
 * from the user's text, so no metacharacter means anything and nothing backtracks).
 */
export function matchesPattern(pattern: string, text: string): boolean {
  const p = pattern.toLowerCase();
  const t = text.toLowerCase();
  let pi = 0;
  let ti = 0;
  let star = -1;
  let resume = 0;
  while (ti < t.length) {
    if (pi < p.length && p[pi] !== '*' && p[pi] === t[ti]) {
      pi++;
      ti++;
    } else if (pi < p.length && p[pi] === '*') {
      star = pi++;
      resume = ti;
    } else if (star !== -1) {
      pi = star + 1;
      ti = ++resume;
    } else {
      return false;
    }
  }
  while (p[pi] === '*') pi++;
  return pi === p.length;
}

export function matchesTable(selector: Exclude<Selector, {kind: 'root'}>, table: DbTable): boolean {
  if (!matchesPattern(selector.schema, table.schema) || !matchesPattern(selector.table, table.name)) return false;
  return selector.has.every((name) => table.columns.some((column) => column.name.toLowerCase() === name.toLowerCase()));
}
