import type {Knex} from 'knex';
import {WorkbenchError} from '../../core/errors.js';
import type {Dialect} from '../dialect/dialect.js';
import {dialectOf} from '../dialect/dialect-of.js';
import {rowPolicy} from '../policy/row-policy.js';
import type {GqlColumn, GqlLink, GqlModel, GqlRequestContext, GqlTable, RowPolicy} from '../types.js';

// The SQL pieces the read statements, the filters and the EAV attributes all build from: table
// references, the link correlation, one column operator, aliases, a column read into JSON. They
// depend on the model and knex only, so filter-sql.ts, json-sql.ts and eav/read-sql.ts import
// them without importing each other in a circle.

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

/** `schema.table` for knex, as the dialect writes it (SQLite's `main` left out: knex would quote it as one name). */
export function tableRef(model: GqlModel, table: GqlTable, alias: string): Record<string, string> {
  return {[alias]: dialectOf(model.provider).qualifiedName(table.schema, table.dbName)};
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

/** A filter the user wrote wrong: a GraphQL-visible invalid_argument. */
export function filterError(message: string): never {
  throw new WorkbenchError('invalid_argument', message);
}

export function asList(op: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) filterError(`${op} takes a list`);
  return value;
}

function patternOf(op: string, value: unknown): string {
  if (typeof value !== 'string') filterError(`${op} takes a string`);
  if (op === '_like') return value;
  const escaped = likeEscape(value);
  return op === '_contains' ? `%${escaped}%` : op === '_starts_with' ? `${escaped}%` : `%${escaped}`;
}

export function applyOperator(dialect: Dialect, qb: Knex.QueryBuilder, table: GqlTable, column: GqlColumn, ref: string, op: string, value: unknown): void {
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
      if (value === null) filterError(`${op} on ${table.name}.${column.name} takes a value, not null`);
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
      else filterError(`_null takes true or false`);
      return;
    case '_between': {
      const list = asList(op, value);
      if (list.length !== 2 || list[0] === null || list[1] === null) filterError(`_between on ${table.name}.${column.name} takes exactly two values`);
      qb.whereBetween(ref, list as [Knex.Value, Knex.Value]);
      return;
    }
    case '_contains':
    case '_starts_with':
    case '_ends_with':
    case '_like':
      if (column.kind !== 'string') filterError(`${op} applies to string columns; ${table.name}.${column.name} is not one`);
      if (op === '_like') qb.where(ref, 'like', patternOf(op, value));
      // The other patterns escape `%`, `_` and `\` with a backslash: how LIKE is told so is the dialect's.
      else dialect.whereLikeEscaped(qb, ref, patternOf(op, value));
      return;
    default:
      filterError(`unknown filter operator ${op} on ${table.name}.${column.name}`);
  }
}

const aliasCounters = new WeakMap<object, number>();

/** A table alias unique within the request (short: PostgreSQL cuts identifiers at 63 bytes). */
export function nextAlias(ctx: GqlRequestContext, prefix: string): string {
  const next = (aliasCounters.get(ctx) ?? 0) + 1;
  aliasCounters.set(ctx, next);
  return `${prefix}${next}`;
}

/** How a column is read into JSON: exact numbers as text (no double rounding), bytes as hex. */
export function columnExpression(dialect: Dialect, column: GqlColumn): string {
  switch (column.kind) {
    case 'decimal':
    case 'bigint':
      return dialect.exactNumberAsText;
    case 'binary':
      return dialect.bytesAsHex;
    default:
      return '??';
  }
}
