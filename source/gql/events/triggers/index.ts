/**
 * Change-event triggers: the outbox rows the service writes for its own changes, written by the
 * database itself for changes other programs make in plain SQL (see README.md, "Triggers").
 */
import {WorkbenchError} from '../../../core/errors.js';
import type {GqlModel, GqlTable} from '../../types.js';
import {mysqlDropStatements, mysqlTriggerStatements} from './mysql.js';
import {postgresDropStatements, postgresTriggerStatements} from './postgres.js';
import {allTriggerNames, triggerPlans, type TriggerProvider} from './shape.js';
import {sqliteDropStatements, sqliteTriggerStatements} from './sqlite.js';

export {TRIGGER_PREFIX, triggerName, triggerPlans, type TriggerProvider} from './shape.js';

const PROVIDERS: readonly string[] = ['postgres', 'mysql', 'sqlite'];

/** The model's provider when it gets triggers; a clear refusal otherwise. */
export function triggerProvider(model: Pick<GqlModel, 'provider'>): TriggerProvider {
  if (!PROVIDERS.includes(model.provider)) {
    throw new WorkbenchError(
      'invalid_argument',
      `change-event triggers exist for PostgreSQL, MariaDB/MySQL and SQLite, not ${model.provider}: there the service's own capture is the only one`,
    );
  }
  return model.provider as TriggerProvider;
}

/** Why `table` cannot get triggers, or undefined. */
export function triggerRefusal(model: GqlModel, table: GqlTable): string | undefined {
  if (!table.events) return `${table.key} emits no events: set emit-events on it`;
  if (!model.events) return 'the model names no outbox-table: set it on :root and create it with `workbench gql events init`';
  if (table.isView) return `${table.key} is a view: its writes land in its base tables, put emit-events on those`;
  if (table.primaryKey.length === 0) return `${table.key} has no primary key: an event names its row by key (aggregate_id), add a primary key first`;
  if (model.provider === 'sqlite' && (table.schema !== 'main' || model.events.outbox.schema !== 'main')) {
    return `${table.key}: SQLite triggers write only within their own database, and the table and the outbox (${model.events.outbox.key}) must both be in main`;
  }
  return undefined;
}

/**
 * The statements that (re)install `table`'s triggers: every trigger of the naming scheme the
 * table no longer needs dropped — so an operation no longer emitted loses its trigger — and one
 * trigger per emitted operation, replacing the one installed before. PostgreSQL and SQLite drop
 * and create inside the install's one transaction; MariaDB commits each DDL statement, so there
 * `create or replace` swaps each trigger in one step and no direct write goes uncaptured between a
 * drop and a create. Refuses a table that cannot have triggers, with why.
 */
export function triggerStatements(model: GqlModel, table: GqlTable): string[] {
  const provider = triggerProvider(model);
  const refusal = triggerRefusal(model, table);
  if (refusal) throw new WorkbenchError('invalid_argument', refusal);
  const outbox = model.events!.outbox;
  const target = {table, outbox, plans: triggerPlans(provider, table)};
  if (provider === 'mysql') {
    const planned = new Set(target.plans.map((plan) => plan.name));
    return [
      ...mysqlDropStatements(
        table,
        allTriggerNames(provider, table).filter((name) => !planned.has(name)),
      ),
      ...mysqlTriggerStatements(target),
    ];
  }
  const create = provider === 'postgres' ? postgresTriggerStatements(target) : sqliteTriggerStatements(target);
  return [...dropTriggerStatements(model, table), ...create];
}

/** Drops every trigger (and PostgreSQL function) `table` can have under the naming scheme; harmless when there are none. */
export function dropTriggerStatements(model: Pick<GqlModel, 'provider'>, table: Pick<GqlTable, 'schema' | 'dbName'>): string[] {
  const provider = triggerProvider(model);
  const names = allTriggerNames(provider, table);
  if (provider === 'postgres') return postgresDropStatements(table, names);
  if (provider === 'mysql') return mysqlDropStatements(table, names);
  return sqliteDropStatements(names);
}
