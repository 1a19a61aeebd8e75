import type {DbTable} from '../types.js';
import {bothWays, type PendingLink, tableKey} from './links.js';

/**
 * Explicit relationships from `join` and `many-to-many` values. Upstream leaves the `join`
 * declaration's shape open; ours (documented in the README):
 *
 *   on a table:   join: [<name> =] <target>(<column> = <target column>[, …])[, <next declaration>]
 *                 `dbo.Invoice { join: Rep = Employee(SupportRepId = EmployeeId) }`
 *   on a column:  join: [<name> =] <target>[.<target column>]
 *                 `dbo.Invoice.SupportRepId { join: Employee }` (the target's single-column key)
 *
 * `<target>` is `table` (this table's schema first, then any schema where the name is unique)
 * or `schema.table`. Several declarations accumulate comma-joined (spec rule 8), so a value is
 * split on the commas outside parentheses. The link is single when the target columns are the
 * target's primary key, many otherwise; the reverse link is added on the target.
 */
export type Resolve = (name: string, from: DbTable) => DbTable | undefined;

export interface JoinOutcome {
  links: PendingLink[];
  errors: string[];
}

/** Splits on commas outside parentheses. */
export function splitDeclarations(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of value) {
    if (char === '(') depth++;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function splitName(declaration: string): {name?: string; rest: string} {
  const paren = declaration.indexOf('(');
  const head = paren === -1 ? declaration : declaration.slice(0, paren);
  const equals = head.indexOf('=');
  if (equals === -1) return {rest: declaration.trim()};
  return {name: declaration.slice(0, equals).trim(), rest: declaration.slice(equals + 1).trim()};
}

function findColumn(table: DbTable, name: string): string | undefined {
  return table.columns.find((column) => column.name.toLowerCase() === name.trim().toLowerCase())?.name;
}

export function tableJoins(table: DbTable, value: string, resolve: Resolve): JoinOutcome {
  const outcome: JoinOutcome = {links: [], errors: []};
  for (const declaration of splitDeclarations(value)) {
    const {name, rest} = splitName(declaration);
    const match = /^([^()]+)\(([^()]*)\)$/.exec(rest);
    if (!match) {
      outcome.errors.push(`join "${declaration}" must read [<name> =] <table>(<column> = <target column>, …)`);
      continue;
    }
    if (name !== undefined && !NAME.test(name)) {
      outcome.errors.push(`join "${declaration}": "${name}" is not a GraphQL field name`);
      continue;
    }
    const target = resolve(match[1].trim(), table);
    if (!target) {
      outcome.errors.push(`join "${declaration}": no table ${match[1].trim()}`);
      continue;
    }
    const pairs = match[2].split(',').map((pair) => pair.split('='));
    const sourceColumns: string[] = [];
    const targetColumns: string[] = [];
    let bad: string | undefined;
    for (const pair of pairs) {
      if (pair.length !== 2) {
        bad = `"${pair.join('=').trim()}" must be <column> = <target column>`;
        break;
      }
      const from = findColumn(table, pair[0]);
      const to = findColumn(target, pair[1]);
      if (!from) bad = `${tableKey(table)} has no column ${pair[0].trim()}`;
      else if (!to) bad = `${tableKey(target)} has no column ${pair[1].trim()}`;
      if (bad) break;
      sourceColumns.push(from!);
      targetColumns.push(to!);
    }
    if (bad) {
      outcome.errors.push(`join "${declaration}": ${bad}`);
      continue;
    }
    const [forward, reverse] = bothWays(table, sourceColumns, target, targetColumns, 'join-rule');
    outcome.links.push({...forward, explicitName: name, declaredBy: declaration}, {...reverse, declaredBy: declaration});
  }
  return outcome;
}

export function columnJoins(table: DbTable, column: string, value: string, resolve: Resolve): JoinOutcome {
  const outcome: JoinOutcome = {links: [], errors: []};
  for (const declaration of splitDeclarations(value)) {
    const {name, rest} = splitName(declaration);
    if (name !== undefined && !NAME.test(name)) {
      outcome.errors.push(`join "${declaration}": "${name}" is not a GraphQL field name`);
      continue;
    }
    // `schema.table.column`, `table.column`, `schema.table` or `table`: the longest table name that resolves wins.
    const parts = rest.split('.').map((part) => part.trim());
    let target: DbTable | undefined;
    let targetColumn: string | undefined;
    for (let cut = Math.min(parts.length, 2); cut >= 1 && !target; cut--) {
      const candidate = resolve(parts.slice(0, cut).join('.'), table);
      if (candidate && parts.length - cut <= 1) {
        target = candidate;
        targetColumn = parts[cut];
      }
    }
    if (!target) {
      outcome.errors.push(`join "${declaration}": no table ${rest}`);
      continue;
    }
    let targetColumns: string[];
    if (targetColumn !== undefined) {
      const found = findColumn(target, targetColumn);
      if (!found) {
        outcome.errors.push(`join "${declaration}": ${tableKey(target)} has no column ${targetColumn}`);
        continue;
      }
      targetColumns = [found];
    } else if (target.primaryKey.length === 1) {
      targetColumns = target.primaryKey;
    } else {
      outcome.errors.push(`join "${declaration}": ${tableKey(target)} has no single-column primary key; name the target column (${tableKey(target)}.<column>)`);
      continue;
    }
    const [forward, reverse] = bothWays(table, [column], target, targetColumns, 'join-rule');
    outcome.links.push({...forward, explicitName: name, declaredBy: declaration}, {...reverse, declaredBy: declaration});
  }
  return outcome;
}

/**
 * `many-to-many: <Target>:<Junction>[, …]`: the junction's keys to this table and to the target
 * (declared foreign keys, else columns named like each side's single-column primary key).
 */
export function manyToManyLinks(table: DbTable, value: string, resolve: Resolve): JoinOutcome {
  const outcome: JoinOutcome = {links: [], errors: []};
  for (const declaration of value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const colon = declaration.indexOf(':');
    if (colon === -1) {
      outcome.errors.push(`many-to-many "${declaration}" must read <TargetTable>:<JunctionTable>`);
      continue;
    }
    const targetName = declaration.slice(0, colon).trim();
    const junctionName = declaration.slice(colon + 1).trim();
    const target = resolve(targetName, table);
    const junction = resolve(junctionName, table);
    if (!target || !junction) {
      outcome.errors.push(`many-to-many "${declaration}": no table ${!target ? targetName : junctionName}`);
      continue;
    }
    const toSource = junctionKey(junction, table);
    const toTarget = junctionKey(junction, target, toSource?.junctionColumns);
    if (!toSource || !toTarget) {
      const missing = !toSource ? tableKey(table) : tableKey(target);
      outcome.errors.push(`many-to-many "${declaration}": ${tableKey(junction)} has no foreign key to ${missing} (nor a column named like its primary key)`);
      continue;
    }
    outcome.links.push({
      source: tableKey(table),
      kind: 'many',
      target: tableKey(target),
      sourceColumns: toSource.refColumns,
      targetColumns: toTarget.refColumns,
      via: {junction: tableKey(junction), junctionSourceColumns: toSource.junctionColumns, junctionTargetColumns: toTarget.junctionColumns},
      origin: 'many-to-many',
      declaredBy: declaration,
    });
  }
  return outcome;
}

/** The junction's columns referencing `side` and the columns they reference; `exclude` keeps a self-relation's two keys apart. */
function junctionKey(junction: DbTable, side: DbTable, exclude?: string[]): {junctionColumns: string[]; refColumns: string[]} | undefined {
  const used = new Set(exclude ?? []);
  const fk = junction.foreignKeys.find((key) => key.refSchema === side.schema && key.refTable === side.name && !key.columns.some((column) => used.has(column)));
  if (fk) return {junctionColumns: fk.columns, refColumns: fk.refColumns};
  if (side.primaryKey.length !== 1) return undefined;
  const column = findColumn(junction, side.primaryKey[0]);
  if (!column || used.has(column)) return undefined;
  return {junctionColumns: [column], refColumns: side.primaryKey};
}
