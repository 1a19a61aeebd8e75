import type {DbModel, MetadataRule, ResolvedMetadata} from '../types.js';
import {ACCUMULATING_KEYS, ROOT_SELECTOR} from './keys.js';
import {matchesPattern, matchesTable, parseSelector} from './selector.js';

/**
 * Every rule applied to the database's tables and columns in order (spec rule 8): a later rule's
 * property replaces an earlier one's on the same target, except `join` and `many-to-many`, which
 * accumulate comma-joined. A rule whose several selectors reach one target applies to it once.
 * Targets are keyed by the database's own spelling (`main.Album.Title`), whatever case the
 * selector was written in.
 */
export function resolveMetadata(rules: readonly MetadataRule[], db: DbModel): ResolvedMetadata {
  const resolved: ResolvedMetadata = {model: {}, tables: new Map(), columns: new Map(), sources: new Map()};
  for (const rule of [...rules].sort((a, b) => a.index - b.index)) {
    const targets = new Map<string, Record<string, string>>();
    for (const text of rule.selectors) {
      const selector = parseSelector(text);
      if ('error' in selector) continue; // parseRules reported it
      if (selector.kind === 'root') {
        targets.set(ROOT_SELECTOR, resolved.model);
        continue;
      }
      for (const table of db.tables) {
        if (!matchesTable(selector, table)) continue;
        const tableKey = `${table.schema}.${table.name}`;
        if (selector.kind === 'table') {
          targets.set(tableKey, propsOf(resolved.tables, tableKey));
          continue;
        }
        for (const column of table.columns) {
          if (matchesPattern(selector.column, column.name)) targets.set(`${tableKey}.${column.name}`, propsOf(resolved.columns, `${tableKey}.${column.name}`));
        }
      }
    }
    for (const [target, props] of targets) {
      for (const [key, value] of rule.properties) {
        props[key] = ACCUMULATING_KEYS.has(key) && props[key] !== undefined && props[key] !== '' ? `${props[key]}, ${value}` : value;
        resolved.sources!.set(`${target}\u0000${key}`, rule);
      }
    }
  }
  return resolved;
}

function propsOf(map: Map<string, Record<string, string>>, key: string): Record<string, string> {
  let props = map.get(key);
  if (!props) map.set(key, (props = {}));
  return props;
}
