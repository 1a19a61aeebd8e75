/**
 * Change-event triggers: the outbox rows the service writes for its own changes, written by the
 * database itself for changes other programs make in plain SQL (see README.md, "Triggers").
 */
import {WorkbenchError} from '../../../core/errors.js';
import type {GqlModel, GqlTable} from '../../types.js';
import {allTriggerNames, triggerPlans, type TriggerProvider} from './shape.js';
import {isTriggerProvider, TRIGGER_WRITERS} from './writers.js';

export {TRIGGER_PREFIX, triggerName, triggerPlans, type TriggerProvider} from './shape.js';

/** The model's provider when it gets triggers; a clear refusal otherwise. */
export function triggerProvider(model: Pick<GqlModel, 'provider'>): TriggerProvider {
  if (!isTriggerProvider(model.provider)) {
    throw new WorkbenchError(
      'invalid_argument',
      `change-event triggers exist for PostgreSQL, MariaDB/MySQL and SQLite, not ${model.provider}: there the service's own capture is the only one`,
    );
  }
  return model.provider;
}

/** Why `table` cannot get triggers, or undefined. */
export function triggerRefusal(model: GqlModel, table: GqlTable): string | undefined {
  if (!table.events) return `${table.key} emits no events: set emit-events on it`;
  if (!model.events) return 'the model names no outbox-table: set it on :root and create it with `workbench gql events init`';
  if (table.isView) return `${table.key} is a view: its writes land in its base tables, put emit-events on those`;
  if (table.primaryKey.length === 0) return `${table.key} has no primary key: an event names its row by key (aggregate_id), add a primary key first`;
  return isTriggerProvider(model.provider) ? TRIGGER_WRITERS[model.provider].refusal?.(table, model.events.outbox) : undefined;
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
  return TRIGGER_WRITERS[provider].install({table, outbox, plans: triggerPlans(provider, table)}, allTriggerNames(provider, table));
}

/** Drops every trigger (and PostgreSQL function) `table` can have under the naming scheme; harmless when there are none. */
export function dropTriggerStatements(model: Pick<GqlModel, 'provider'>, table: Pick<GqlTable, 'schema' | 'dbName'>): string[] {
  const provider = triggerProvider(model);
  return TRIGGER_WRITERS[provider].drop(table, allTriggerNames(provider, table));
}
