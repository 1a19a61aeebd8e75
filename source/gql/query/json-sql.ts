import type {Knex} from 'knex';
import {WorkbenchError} from '../../core/errors.js';
import type {JsonPair} from '../dialect/dialect.js';
import {dialectOf} from '../dialect/dialect-of.js';
import {attributesSubquery} from '../eav/read-sql.js';
import type {GqlRequestContext} from '../types.js';
import {applyFilter} from './filter-sql.js';
import {columnExpression, correlate, nextAlias, readPolicy, tableRef} from './sql-parts.js';
import type {AggPlan} from './nested-aggregate.js';
import type {CollectionPlan, FieldPlan, ManyPlan, SinglePlan} from './plan.js';

/**
 * Plan → one SQL statement, the way PostGraphile 4 answers a query: every row is built as a JSON
 * object by the database (keys are the response keys), a to-one link is a correlated subquery
 * giving one object, a to-many link a correlated subquery aggregating an ordered, limited list.
 * How each database builds an object and aggregates a list is its dialect's (source/gql/dialect/:
 * json_build_object/json_agg on PostgreSQL, json_object/json_group_array on SQLite,
 * JSON_OBJECT/JSON_ARRAYAGG on MariaDB, FOR JSON PATH and STRING_AGG on SQL Server); this file
 * writes the one statement shape all four share.
 */

function jsonObject(ctx: GqlRequestContext, pairs: JsonPair[]): Knex.Raw {
  return dialectOf(ctx.model.provider).jsonObject(ctx.db, pairs);
}

/** The JSON object of one row of the plan's table, aliased `alias`. */
function rowObject(ctx: GqlRequestContext, fields: FieldPlan[], alias: string): Knex.Raw {
  const dialect = dialectOf(ctx.model.provider);
  const pairs: JsonPair[] = [];
  for (const field of fields) {
    if (field.kind === 'column') {
      pairs.push({key: field.key, sql: columnExpression(dialect, field.column), bindings: [`${alias}.${field.column.dbName}`]});
    } else if (field.kind === 'eav') {
      const sub = attributesSubquery(ctx, field.table, field.shape, alias);
      pairs.push({key: field.key, sql: dialect.embeddedJson, bindings: [sub]});
    } else if (field.kind === 'single') {
      const sub = singleSubquery(ctx, field, alias);
      pairs.push({key: field.key, sql: dialect.embeddedJson, bindings: [sub]});
    } else if (field.kind === 'agg') {
      pairs.push({key: field.key, sql: '?', bindings: [aggregateSubquery(ctx, field, alias)]});
    } else {
      const sub = field.page ? pageObject(ctx, field, field.page, alias) : manySubquery(ctx, field.collection, field.link, alias);
      pairs.push({key: field.key, sql: dialect.embeddedJson, bindings: [sub]});
    }
  }
  return jsonObject(ctx, pairs);
}

/**
 * A nested page (`conventions: bifrost`) as one JSON object keyed by the response keys: `data`
 * the same ordered, limited list a nested collection is, `total` a count of the parent's matching
 * rows (same correlation, policy and filter), `offset` and `limit` the window applied.
 */
function pageObject(ctx: GqlRequestContext, field: ManyPlan, keys: NonNullable<ManyPlan['page']>, parentAlias: string): Knex.Raw {
  const dialect = dialectOf(ctx.model.provider);
  const plan = field.collection;
  const pairs: JsonPair[] = keys.map(({key, field: part}) => {
    if (part === 'data') {
      const list = manySubquery(ctx, plan, field.link, parentAlias);
      return {key, sql: dialect.embeddedJson, bindings: [list]};
    }
    if (part === 'total') {
      const count = collectionRows(ctx, plan, nextAlias(ctx, 't'), {link: field.link, alias: parentAlias}).select(ctx.db.raw('count(*)'));
      return {key, sql: '?', bindings: [count]};
    }
    // Whole numbers the plan checked: written as literals (PostgreSQL cannot type a bare parameter in json_build_object).
    return {key, sql: String(part === 'offset' ? plan.offset : plan.limit), bindings: []};
  });
  return jsonObject(ctx, pairs);
}

const AGGREGATE_FUNCTION: Record<AggPlan['operation'], string> = {Count: 'count', Sum: 'sum', Avg: 'avg', Max: 'max', Min: 'min'};

/**
 * `_agg` as a correlated scalar subquery: the path's tables joined link by link from the row
 * (each under its own read policy, so no aggregate counts a row its user could not read), the
 * operation over the last table's column. Count over no rows is 0; the others are null.
 */
function aggregateSubquery(ctx: GqlRequestContext, plan: AggPlan, parentAlias: string): Knex.QueryBuilder {
  const aliases = plan.path.map(() => nextAlias(ctx, 't'));
  const [first, ...rest] = plan.path;
  if (!first) throw new WorkbenchError('internal', '_agg without a link');
  const qb = ctx.db.from(tableRef(ctx.model, first.table, aliases[0] as string));
  correlate(ctx, qb, first.link, parentAlias, aliases[0] as string);
  rest.forEach((step, index) => {
    const alias = aliases[index + 1] as string;
    const qualified = tableRef(ctx.model, step.table, alias)[alias] as string;
    qb.crossJoin(ctx.db.raw('?? as ??', [qualified, alias]));
    correlate(ctx, qb, step.link, aliases[index] as string, alias);
  });
  plan.path.forEach((step, index) => {
    for (const predicate of readPolicy(ctx, step.table).predicates) predicate.apply(qb, aliases[index] as string);
  });
  return qb.select(ctx.db.raw(`${AGGREGATE_FUNCTION[plan.operation]}(??)`, [`${aliases[aliases.length - 1]}.${plan.column.dbName}`]));
}

function singleSubquery(ctx: GqlRequestContext, field: SinglePlan, parentAlias: string): Knex.QueryBuilder {
  const alias = nextAlias(ctx, 't');
  const policy = readPolicy(ctx, field.table);
  const qb = ctx.db.select(rowObject(ctx, field.fields, alias)).from(tableRef(ctx.model, field.table, alias));
  correlate(ctx, qb, field.link, parentAlias, alias);
  for (const predicate of policy.predicates) predicate.apply(qb, alias);
  // Through the target's primary key one row comes back anyway: no Limit node per parent row.
  const byKey =
    field.table.primaryKey.length > 0 &&
    field.table.primaryKey.length === field.link.targetColumns.length &&
    field.table.primaryKey.every((column) => field.link.targetColumns.includes(column));
  return byKey && !field.link.via ? qb : qb.limit(1);
}

/** The rows of a collection: FROM, the correlation to a parent, the row policy, the filter. */
export function collectionRows(ctx: GqlRequestContext, plan: CollectionPlan, alias: string, parent?: {link: CollectionLink; alias: string}): Knex.QueryBuilder {
  const policy = readPolicy(ctx, plan.table);
  const qb = ctx.db.from(tableRef(ctx.model, plan.table, alias));
  if (parent) correlate(ctx, qb, parent.link, parent.alias, alias);
  for (const predicate of policy.predicates) predicate.apply(qb, alias);
  if (plan.filter) applyFilter(qb, plan.table, plan.filter, ctx, alias);
  return qb;
}

type CollectionLink = Parameters<typeof correlate>[2];

function manySubquery(ctx: GqlRequestContext, plan: CollectionPlan, link: CollectionLink, parentAlias: string): Knex.QueryBuilder | Knex.Raw {
  const alias = nextAlias(ctx, 't');
  const rows = collectionRows(ctx, plan, alias, {link, alias: parentAlias});
  const object = rowObject(ctx, plan.fields, alias);
  const order = plan.sort.map((key) => ({ref: `${alias}.${key.column}`, descending: key.descending}));
  return dialectOf(ctx.model.provider).jsonArrayAgg(ctx.db, {rows, object, order, limit: plan.limit, offset: plan.offset, innerAlias: () => nextAlias(ctx, 's')});
}

/**
 * The statement answering a root collection: one row per result row, column `j` its JSON, and
 * `total` (every matching row, before the window) when asked for.
 */
export function rootStatement(ctx: GqlRequestContext, plan: CollectionPlan, withTotal: boolean): Knex.QueryBuilder {
  const alias = 't0';
  const qb = collectionRows(ctx, plan, alias);
  qb.select(ctx.db.raw('? as j', [rowObject(ctx, plan.fields, alias)]));
  if (withTotal) qb.select(ctx.db.raw('count(*) over () as total'));
  for (const key of plan.sort) qb.orderBy(`${alias}.${key.column}`, key.descending ? 'desc' : 'asc');
  qb.limit(plan.limit);
  if (plan.offset > 0) qb.offset(plan.offset);
  return qb;
}

/** `select count(*)` over the collection's rows: the total when the window held no row to carry it. */
export function countStatement(ctx: GqlRequestContext, plan: CollectionPlan): Knex.QueryBuilder {
  return collectionRows(ctx, plan, 't0').count({total: '*'});
}
