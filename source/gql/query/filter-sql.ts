import type {Knex} from 'knex';
import {dialectOf} from '../dialect/dialect-of.js';
import {EAV_FILTER_FIELD} from '../eav/fields.js';
import {applyAttributeFilter} from '../eav/read-sql.js';
import {targetTable, visibleColumn} from '../model/lookup.js';
import type {FilterInput, GqlRequestContext, GqlTable} from '../types.js';
import {applyOperator, asList, correlate, filterError, nextAlias, readPolicy, tableRef} from './sql-parts.js';

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

function applyFilterAt(qb: Knex.QueryBuilder, table: GqlTable, filter: FilterInput, ctx: GqlRequestContext, alias: string, depth: number): void {
  if (!isRecord(filter)) filterError(`a filter on ${table.name} must be an object`);
  if (depth > MAX_FILTER_DEPTH) filterError(`the filter nests deeper than ${MAX_FILTER_DEPTH} levels`);
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
      if (!isRecord(value)) filterError(`the filter on ${table.name}.${key} must be an object of operators like {_eq: …}`);
      const ref = `${alias}.${column.dbName}`;
      for (const [op, operand] of Object.entries(value)) applyOperator(dialectOf(ctx.model.provider), qb, table, column, ref, op, operand);
      continue;
    }
    const link = table.links.find((candidate) => candidate.name === key);
    if (link) {
      if (!isRecord(value)) filterError(`the filter through ${table.name}.${key} must be an object`);
      const target = targetTable(ctx.model, link);
      if (target.hidden) filterError(`unknown filter field ${key} on ${table.name}`);
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
    filterError(`unknown filter field ${key} on ${table.name}`);
  }
}
