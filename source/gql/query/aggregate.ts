import type {GraphQLResolveInfo} from 'graphql';
import {WorkbenchError} from '../../core/errors.js';
import type {ColumnKind, FilterInput, GqlColumn, GqlRequestContext, GqlTable, Row} from '../types.js';
import {visibleColumn} from '../model/lookup.js';
import {applyFilter} from './filter-sql.js';
import {readPolicy, tableRef} from './sql-parts.js';
import {effectiveLimit} from './limits.js';
import {collectFields} from './plan.js';
import {compile, run} from './statements.js';

export const AGGREGATE_OPERATIONS = ['_sum', '_avg', '_min', '_max'] as const;
type Operation = (typeof AGGREGATE_OPERATIONS)[number];

const NUMERIC_KINDS: ReadonlySet<ColumnKind> = new Set(['int', 'bigint', 'float', 'decimal']);

/** The columns `_sum`/`_avg`/`_min`/`_max` cover (upstream: numeric columns, as Float). */
export function numericColumns(table: GqlTable): GqlColumn[] {
  return table.columns.filter((column) => !column.hidden && NUMERIC_KINDS.has(column.kind));
}

const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/**
 * `<table>Aggregate(filter, groupBy)`: one GROUP BY statement under the same read policy as the
 * rows, so a count or sum never includes a row the user could not read. Groups are ordered by
 * their keys and clamped at `max-query-rows` (the spec's group window).
 */
export async function readAggregate(
  table: GqlTable,
  args: {filter?: FilterInput | null; groupBy?: string[] | null},
  ctx: GqlRequestContext,
  info: GraphQLResolveInfo,
): Promise<Row[]> {
  const input = {model: ctx.model, fragments: info.fragments, variables: info.variableValues};
  const wanted = new Map<Operation, Set<string>>();
  for (const nodes of collectFields(
    info.fieldNodes.map((node) => node.selectionSet),
    input,
  ).values()) {
    for (const node of nodes) {
      const op = node.name.value as Operation;
      if (!AGGREGATE_OPERATIONS.includes(op)) continue;
      const columns = wanted.get(op) ?? new Set<string>();
      for (const inner of collectFields([node.selectionSet], input).values()) for (const field of inner) if (field.name.value !== '__typename') columns.add(field.name.value);
      wanted.set(op, columns);
    }
  }

  const groupBy = [...new Set(args.groupBy ?? [])].map((name) => {
    const column = visibleColumn(table, name);
    if (!column) throw new WorkbenchError('invalid_argument', `unknown groupBy column ${name} on ${table.name}`);
    return column;
  });
  const policy = readPolicy(ctx, table);
  const alias = 't0';
  const qb = ctx.db.from(tableRef(ctx.model, table, alias));
  for (const predicate of policy.predicates) predicate.apply(qb, alias);
  if (args.filter) applyFilter(qb, table, args.filter, ctx, alias);
  groupBy.forEach((column, index) => qb.select({[`g${index}`]: `${alias}.${column.dbName}`}));
  qb.select(ctx.db.raw('count(*) as ??', ['n']));
  const values: Array<{op: Operation; column: GqlColumn; as: string}> = [];
  for (const [op, names] of wanted) {
    for (const name of names) {
      const column = numericColumns(table).find((candidate) => candidate.name === name);
      if (!column) throw new WorkbenchError('invalid_argument', `${op} has no column ${name} on ${table.name}`);
      const as = `v${values.length}`;
      values.push({op, column, as});
      qb.select(ctx.db.raw(`${op.slice(1)}(??) as ??`, [`${alias}.${column.dbName}`, as]));
    }
  }
  if (groupBy.length > 0) {
    qb.groupBy(groupBy.map((column) => `${alias}.${column.dbName}`));
    for (const column of groupBy) qb.orderBy(`${alias}.${column.dbName}`);
  }
  qb.limit(effectiveLimit(ctx.model, table, -1, 'per group'));

  const rows = await run(ctx, compile(qb));
  return rows.map((row) => {
    const out: Row = {_count: Number(row.n)};
    groupBy.forEach((column, index) => (out[column.name] = row[`g${index}`]));
    for (const op of AGGREGATE_OPERATIONS) if (wanted.has(op)) out[op] = {};
    for (const value of values) (out[value.op] as Row)[value.column.name] = number(row[value.as]);
    return out;
  });
}
