import type {Knex} from 'knex';
import type {GqlModel, GqlTable, PolicyOperation, PolicyPredicate, Row, RowPolicy, UserContext} from '../types.js';

/** A claim value a predicate can compare with: scalars, or a list of scalars (any of them). */
type ClaimValue = string | number | boolean | Array<string | number | boolean>;

function claimValue(raw: unknown): ClaimValue | undefined {
  if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') return raw;
  if (Array.isArray(raw) && raw.length > 0 && raw.every((item) => typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean')) {
    return raw as Array<string | number | boolean>;
  }
  return undefined;
}

/**
 * Whether a claim can name rows of the column at all. An empty string names nobody, and a value
 * of the wrong shape for an integer column is not compared: MySQL would coerce it (`""` → 0,
 * `"1abc"` → 1, `true` → 1: another tenant's rows) and PostgreSQL would fail with a database
 * error. Such a claim counts as absent, so the policy fails closed with a clear reason.
 */
function fitsColumn(table: GqlTable, column: string, value: ClaimValue): boolean {
  const items = Array.isArray(value) ? value : [value];
  if (items.some((item) => typeof item === 'string' && item.trim() === '')) return false;
  const kind = table.columns.find((candidate) => candidate.dbName === column)?.kind;
  // A text column compares with text only: MySQL would compare `'12abc'` with a number 12 as equal.
  if (kind === 'string' || kind === 'uuid') return items.every((item) => typeof item === 'string');
  if (kind !== 'int' && kind !== 'bigint') return true;
  return items.every((item) => (typeof item === 'number' && Number.isInteger(item)) || (typeof item === 'string' && /^-?\d+$/.test(item.trim())));
}

function equals(rule: PolicyPredicate['rule'], column: string, value: ClaimValue): PolicyPredicate {
  const many = Array.isArray(value);
  return {
    rule,
    column,
    sql: many ? `${column} in (${value.map(() => '?').join(', ')})` : `${column} = ?`,
    bindings: many ? [...value] : [value],
    apply(qb: Knex.QueryBuilder, alias: string) {
      if (many) qb.whereIn(`${alias}.${column}`, value);
      else qb.where(`${alias}.${column}`, value);
    },
  };
}

function isNull(column: string): PolicyPredicate {
  return {
    rule: 'soft-delete',
    column,
    sql: `${column} is null`,
    bindings: [],
    apply(qb: Knex.QueryBuilder, alias: string) {
      qb.whereNull(`${alias}.${column}`);
    },
  };
}

/**
 * The rows of `table` that `user` may reach with `op`, as the metadata rules say: the tenant
 * filter (`tenant-filter` compared with the `tenant-context-key` claim), each `auto-filter`
 * (skipped for `auto-filter-bypass-role`), and the soft-delete filter (deleted rows are gone for
 * every operation but insert). Every read, nested read, relationship filter, aggregate and write
 * applies it, so there is one place that decides what a user sees.
 *
 * It fails closed: a tenant-isolated or auto-filtered table with the claim missing is `denied`,
 * never served unfiltered. Values that a filter pins are returned in `forcedValues` so inserts
 * and updates write the user's own tenant, never another.
 */
export function rowPolicy(model: GqlModel, table: GqlTable, user: UserContext, op: PolicyOperation): RowPolicy {
  const predicates: PolicyPredicate[] = [];
  const forcedValues: Row = {};
  let denied: string | undefined;

  if (table.tenantColumn) {
    const tenant = claimValue(user.claims[model.tenantContextKey]);
    if (tenant === undefined || Array.isArray(tenant)) {
      denied = `${table.name} is isolated by tenant and the request carries no single "${model.tenantContextKey}" claim`;
    } else if (!fitsColumn(table, table.tenantColumn, tenant)) {
      denied = `${table.name} is isolated by tenant and the request's "${model.tenantContextKey}" claim is not a value of ${table.tenantColumn}`;
    } else {
      predicates.push(equals('tenant-filter', table.tenantColumn, tenant));
      forcedValues[table.tenantColumn] = tenant;
    }
  }

  const bypass = model.autoFilterBypassRole !== undefined && user.roles.includes(model.autoFilterBypassRole);
  if (!bypass) {
    for (const {column, claim} of table.autoFilters) {
      const value = claimValue(user.claims[claim]);
      if (value === undefined) {
        denied ??= `${table.name} is filtered on ${column} by the "${claim}" claim, which the request does not carry`;
        continue;
      }
      if (!fitsColumn(table, column, value)) {
        denied ??= `${table.name} is filtered on ${column} by the "${claim}" claim, whose value is not a value of ${column}`;
        continue;
      }
      predicates.push(equals('auto-filter', column, value));
      if (!Array.isArray(value)) forcedValues[column] = value;
    }
  }

  if (table.softDelete && op !== 'insert') predicates.push(isNull(table.softDelete.column));

  return denied === undefined ? {predicates, forcedValues} : {predicates, forcedValues, denied};
}

/** Adds every predicate of `policy` to `qb` (whose table is aliased `alias`). */
export function applyRowPolicy(qb: Knex.QueryBuilder, policy: RowPolicy, alias: string): void {
  for (const predicate of policy.predicates) predicate.apply(qb, alias);
}
