import type {Knex} from 'knex';
import {applyRowPolicy} from '../policy/row-policy.js';
import type {RowPolicy} from '../types.js';

/**
 * A policy's predicates as a SQL condition on `alias`, for statements knex cannot build (an
 * upsert's conflict branch, a set-based update joined to its staging table). The predicates
 * render themselves on a throwaway builder, so this text is exactly what reads and plain writes
 * add; undefined when the policy adds nothing.
 */
export function policyCondition(db: Knex, policy: RowPolicy, alias: string): {sql: string; bindings: unknown[]} | undefined {
  if (policy.predicates.length === 0) return undefined;
  const compiled = db
    .queryBuilder()
    .select(db.raw('1'))
    .where((qb) => applyRowPolicy(qb, policy, alias))
    .toSQL();
  const at = compiled.sql.indexOf(' where ');
  return {sql: compiled.sql.slice(at + ' where '.length), bindings: [...compiled.bindings]};
}
