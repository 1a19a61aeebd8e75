import type {Knex} from 'knex';
import type {UpsertRow} from '../dialect/dialect.js';
import {dialectOf} from '../dialect/dialect-of.js';
import type {Provider, RowPolicy} from '../types.js';
import {policyCondition} from './policy-sql.js';

/** The row upserted (dialect.ts `UpsertRow`) and the update policy: an existing row outside it is left alone. */
export interface UpsertSpec extends UpsertRow {
  policy: RowPolicy;
}

/**
 * One upsert statement, in each database's own form (its dialect's `upsert`): `ON CONFLICT … DO
 * UPDATE … WHERE` on PostgreSQL and SQLite, `ON DUPLICATE KEY UPDATE` with each assignment
 * guarded by the policy on MySQL (it has no WHERE there), `MERGE … WHEN MATCHED AND` on SQL
 * Server. An existing row the policy does not reach (another tenant's, a soft-deleted one) is
 * never changed. PostgreSQL, SQLite and SQL Server return the key of the row written; MySQL
 * returns nothing (the caller checks the row afterwards).
 */
export function upsertStatement(db: Knex, provider: Provider, spec: UpsertSpec): Knex.Raw {
  return dialectOf(provider).upsert(db, spec, (alias) => policyCondition(db, spec.policy, alias));
}
