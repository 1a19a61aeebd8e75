import type {Knex} from 'knex';
import {WorkbenchError} from '../../core/errors.js';
import {rowPolicy} from '../policy/row-policy.js';
import {EAV_FILTER_FIELD} from '../eav/fields.js';
import {applyAttributeFilter} from '../eav/read-sql.js';
import type {FilterInput, GqlColumn, GqlLink, GqlModel, GqlRequestContext, GqlTable, Provider, RowPolicy} from '../types.js';

/** The comparison operators every column kind has. */
export const COMPARISON_OPERATORS = ['_eq', '_neq', '_gt', '_gte', '_lt', '_lte', '_in', '_nin', '_null', '_between'] as const;
/** The pattern operators, on string columns only. */
export const STRING_OPERATORS = ['_contains', '_starts_with', '_ends_with', '_like'] as const;

/** The row policy of `table` for a read, or a GraphQL-visible error when the user may not read it at all. */
export function readPolicy(ctx: GqlRequestContext, table: GqlTable): RowPolicy {
  const policy = rowPolicy(ctx.model, table, ctx.user, 'read');
  if (policy.denied) throw new WorkbenchError('forbidden', policy.denied);
  return policy;
}

export function visibleColumn(table: GqlTable, name: string): GqlColumn | undefined {
  return table.columns.find((column) => column.name === name && !column.hidden);
}

export function targetTable(model: GqlModel, link: GqlLink): GqlTable {
  const target = model.byKey.get(link.target);
  if (!target) throw new WorkbenchError('internal', `link ${link.name} points at ${link.target}, which the model does not have`);
  return target;
}

/** `schema.table` for knex, leaving out SQLite's `main` (knex would quote it as one name otherwise). */
export function tableRef(model: GqlModel, table: GqlTable, alias: string): Record<string, string> {
  const qualified = model.provider === 'sqlite' || !table.schema ? table.dbName : `${table.schema}.${table.dbName}`;
  return {[alias]: qualified};
}

/**
 * Adds to `qb` (whose FROM is `source` aliased `sourceAlias`) the condition that ties the link's
 * target rows, aliased `targetAlias`, to the source row; many-to-many joins the junction in.
 */
export function correlate(ctx: GqlRequestContext, qb: Knex.QueryBuilder, link: GqlLink, sourceAlias: string, targetAlias: string): void {
  if (link.via) {
    const via = link.via;
    const junction = ctx.model.byKey.get(via.junction);
    const junctionAlias = `${targetAlias}_j`;
    const junctionName = junction ? tableRef(ctx.model, junction, junctionAlias) : {[junctionAlias]: via.junction.split('.').pop() ?? via.junction};
    qb.join(junctionName, (on) => {
      via.junctionTargetColumns.forEach((column, index) => on.on(`${junctionAlias}.${column}`, '=', `${targetAlias}.${link.targetColumns[index]}`));
    });
    via.junctionSourceColumns.forEach((column, index) => qb.whereRaw('?? = ??', [`${junctionAlias}.${column}`, `${sourceAlias}.${link.sourceColumns[index]}`]));
    return;
  }
  link.targetColumns.forEach((column, index) => qb.whereRaw('?? = ??', [`${targetAlias}.${column}`, `${sourceAlias}.${link.sourceColumns[index]}`]));
}

const likeEscape = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

function fail(message: string): never {
  throw new WorkbenchError('invalid_argument', message);
}

function asList(op: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) fail(`${op} takes a list`);
  return value;
}

function patternOf(op: string, value: unknown): string {
  if (typeof value !== 'string') fail(`${op} takes a string`);
  if (op === '_like') return value;
  const escaped = likeEscape(value);
  return op === '_contains' ? `%${escaped}%` : op === '_starts_with' ? `${escaped}%` : `%${escaped}`;
}

export function applyOperator(provider: Provider, qb: Knex.QueryBuilder, table: GqlTable, column: GqlColumn, ref: string, op: string, value: unknown): void {
  if (value === undefined) return;
  switch (op) {
    case '_eq':
      if (value === null) qb.whereNull(ref);
      else qb.where(ref, '=', value as Knex.Value);
      return;
    case '_neq':
      if (value === null) qb.whereNotNull(ref);
      else qb.where(ref, '<>', value as Knex.Value);
      return;
    case '_gt':
    case '_gte':
    case '_lt':
    case '_lte': {
      if (value === null) fail(`${op} on ${table.name}.${column.name} takes a value, not null`);
      const sign = {_gt: '>', _gte: '>=', _lt: '<', _lte: '<='}[op];
      qb.where(ref, sign, value as Knex.Value);
      return;
    }
    case '_in': {
      const list = asList(op, value);
      if (list.length === 0) qb.whereRaw('1 = 0');
      else qb.whereIn(ref, list as Knex.Value[]);
      return;
    }
    case '_nin': {
      const list = asList(op, value);
      if (list.length > 0) qb.whereNotIn(ref, list as Knex.Value[]);
      return;
    }
    case '_null':
      if (value === true) qb.whereNull(ref);
      else if (value === false) qb.whereNotNull(ref);
      else fail(`_null takes true or false`);
      return;
    case '_between': {
      const list = asList(op, value);
      if (list.length !== 2 || list[0] === null || list[1] === null) fail(`_between on ${table.name}.${column.name} takes exactly two values`);
      qb.whereBetween(ref, list as [Knex.Value, Knex.Value]);
      return;
    }
    case '_contains':
    case '_starts_with':
    case '_ends_with':
    case '_like':
      if (column.kind !== 'string') fail(`${op} applies to string columns; ${table.name}.${column.name} is not one`);
      if (op === '_like') qb.where(ref, 'like', patternOf(op, value));
      // PostgreSQL and MySQL escape LIKE with a backslash by default (and MySQL would read '\\' as an open string); SQLite and SQL Server need saying.
      else if (provider === 'postgres' || provider === 'mysql') qb.where(ref, 'like', patternOf(op, value));
      else qb.whereRaw(`?? like ? escape '\\'`, [ref, patternOf(op, value)]);
      return;
    default:
      fail(`unknown filter operator ${op} on ${table.name}.${column.name}`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Adds `filter` (as written in GraphQL: `{col: {_op: v}}`, `and`/`or` lists, and link fields that
 * filter through a relationship) to `qb`, whose table is `table` aliased `alias`. Names are the
 * GraphQL names and are checked against the model: a hidden or unknown column is an error, never
 * SQL. A link field becomes `EXISTS (…)` over the target with the target's own read policy inside,
 * so a relationship filter cannot see rows its user could not read directly.
 */
export function applyFilter(qb: Knex.QueryBuilder, table: GqlTable, filter: FilterInput, ctx: GqlRequestContext, alias: string): void {
  applyFilterAt(qb, table, filter, ctx, alias, 0);
}

const MAX_FILTER_DEPTH = 32;

const aliasCounters = new WeakMap<object, number>();

/** A table alias unique within the request (short: PostgreSQL cuts identifiers at 63 bytes). */
export function nextAlias(ctx: GqlRequestContext, prefix: string): string {
  const next = (aliasCounters.get(ctx) ?? 0) + 1;
  aliasCounters.set(ctx, next);
  return `${prefix}${next}`;
}

function applyFilterAt(qb: Knex.QueryBuilder, table: GqlTable, filter: FilterInput, ctx: GqlRequestContext, alias: string, depth: number): void {
  if (!isRecord(filter)) fail(`a filter on ${table.name} must be an object`);
  if (depth > MAX_FILTER_DEPTH) fail(`the filter nests deeper than ${MAX_FILTER_DEPTH} levels`);
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null) continue;
    if (key === 'and' || key === 'or') {
      const parts = asList(key, value);
      if (parts.length === 0) continue;
      qb.where((group) => {
        for (const part of parts) {
          const add = (inner: Knex.QueryBuilder) => applyFilterAt(inner, table, part as FilterInput, ctx, alias, depth + 1);
          if (key === 'and') group.where(add);
          else group.orWhere(add);
        }
      });
      continue;
    }
    const column = visibleColumn(table, key);
    if (column) {
      if (!isRecord(value)) fail(`the filter on ${table.name}.${key} must be an object of operators like {_eq: …}`);
      const ref = `${alias}.${column.dbName}`;
      for (const [op, operand] of Object.entries(value)) applyOperator(ctx.model.provider, qb, table, column, ref, op, operand);
      continue;
    }
    const link = table.links.find((candidate) => candidate.name === key);
    if (link) {
      if (!isRecord(value)) fail(`the filter through ${table.name}.${key} must be an object`);
      const target = targetTable(ctx.model, link);
      if (target.hidden) fail(`unknown filter field ${key} on ${table.name}`);
      const policy = readPolicy(ctx, target);
      const targetAlias = nextAlias(ctx, 'e');
      const exists = ctx.db.select(ctx.db.raw('1')).from(tableRef(ctx.model, target, targetAlias));
      correlate(ctx, exists, link, alias, targetAlias);
      for (const predicate of policy.predicates) predicate.apply(exists, targetAlias);
      applyFilterAt(exists, target, value, ctx, targetAlias, depth + 1);
      qb.whereExists(exists);
      continue;
    }
    if (key === EAV_FILTER_FIELD && table.eav) {
      applyAttributeFilter(qb, table, value, ctx, alias);
      continue;
    }
    fail(`unknown filter field ${key} on ${table.name}`);
  }
}
