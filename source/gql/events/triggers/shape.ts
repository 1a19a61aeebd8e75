import {createHash} from 'node:crypto';
import {WorkbenchError} from '../../../core/errors.js';
import type {EventOp, GqlColumn, GqlTable, Provider} from '../../types.js';

/** Every trigger (and PostgreSQL trigger function) this folder writes starts with it: detection and uninstall look for it. */
export const TRIGGER_PREFIX = 'wb_cdc_';

/** The providers that get triggers (SQL Server's service path is the only capture there). */
export type TriggerProvider = Extract<Provider, 'postgres' | 'mysql' | 'sqlite'>;

/** Identifier limits: PostgreSQL truncates past 63 bytes (silently: two long names would collide), MariaDB refuses past 64. */
const NAME_LIMIT: Record<TriggerProvider, number> = {postgres: 63, mysql: 64, sqlite: 64};

/**
 * `wb_cdc_<table>_<op>`; a table name too long for the limit is cut and followed by a hash of
 * `schema.table`, so two long names sharing a prefix still get two triggers.
 */
export function triggerName(provider: TriggerProvider, table: Pick<GqlTable, 'schema' | 'dbName'>, op: EventOp): string {
  const plain = `${TRIGGER_PREFIX}${table.dbName}_${op}`;
  const limit = NAME_LIMIT[provider];
  if (Buffer.byteLength(plain) <= limit) return plain;
  const hash = createHash('sha256').update(`${table.schema}.${table.dbName}`).digest('hex').slice(0, 8);
  let head = table.dbName;
  while (Buffer.byteLength(`${TRIGGER_PREFIX}${head}_${hash}_${op}`) > limit) head = head.slice(0, -1);
  return `${TRIGGER_PREFIX}${head}_${hash}_${op}`;
}

/**
 * What one trigger branch writes. `soft-delete` is an UPDATE that stamps the soft-delete column
 * (null → not null): the service calls that a delete, with both images, and so does the trigger.
 */
export type Change = 'insert' | 'update' | 'delete' | 'soft-delete';

export const opOf = (change: Change): EventOp => (change === 'soft-delete' ? 'delete' : change);

/** One trigger: the statement event it fires on and its branches (an UPDATE of a soft-delete table may have two). */
export interface TriggerPlan {
  /** The SQL event, and the name's suffix. */
  on: EventOp;
  name: string;
  branches: Change[];
}

/**
 * The triggers a table needs: one per emitted operation, and the UPDATE trigger also when only
 * `delete` is emitted but the table soft-deletes (a soft delete is an UPDATE statement).
 */
export function triggerPlans(provider: TriggerProvider, table: GqlTable): TriggerPlan[] {
  const ops = table.events?.ops ?? [];
  const plans: TriggerPlan[] = [];
  if (ops.includes('insert')) plans.push({on: 'insert', name: triggerName(provider, table, 'insert'), branches: ['insert']});
  const onUpdate: Change[] = [];
  if (softDeletes(table) && ops.includes('delete')) onUpdate.push('soft-delete');
  if (ops.includes('update')) onUpdate.push('update');
  if (onUpdate.length > 0) plans.push({on: 'update', name: triggerName(provider, table, 'update'), branches: onUpdate});
  if (ops.includes('delete')) plans.push({on: 'delete', name: triggerName(provider, table, 'delete'), branches: ['delete']});
  return plans;
}

/** Every name a table's triggers can have (all three operations): what uninstall and re-install drop. */
export function allTriggerNames(provider: TriggerProvider, table: Pick<GqlTable, 'schema' | 'dbName'>): string[] {
  return (['insert', 'update', 'delete'] as const).map((op) => triggerName(provider, table, op));
}

/** Which row image a branch reads its key, tenant and images from. */
export interface BranchRows {
  key: 'NEW' | 'OLD';
  /** Tenant: the first non-null of these (the service prefers the after image). */
  tenant: Array<'NEW' | 'OLD'>;
  before: boolean;
  after: boolean;
}

export function branchRows(change: Change): BranchRows {
  switch (change) {
    case 'insert':
      return {key: 'NEW', tenant: ['NEW'], before: false, after: true};
    case 'update':
      return {key: 'NEW', tenant: ['NEW', 'OLD'], before: true, after: true};
    case 'delete':
      return {key: 'OLD', tenant: ['OLD'], before: true, after: false};
    case 'soft-delete':
      return {key: 'NEW', tenant: ['NEW', 'OLD'], before: true, after: true};
  }
}

/** Whether the service's delete on this table is a soft delete (an UPDATE stamping `soft-delete`'s column); `delete-type: hard` keeps it a DELETE. */
export const softDeletes = (table: GqlTable): boolean => table.deleteType === 'soft' && table.softDelete !== undefined;

/** The guard of a soft-delete table's UPDATE branches: the soft-delete column went from null to a value. */
export function softDeleteGuard(table: GqlTable, quote: (name: string) => string): string | undefined {
  if (!table.softDelete || !softDeletes(table)) return undefined;
  const column = quote(table.softDelete.column);
  return `(OLD.${column} is null and NEW.${column} is not null)`;
}

/** A branch's guard inside its trigger: which UPDATEs it takes (undefined: every row). */
export function branchGuard(plan: TriggerPlan, change: Change, guard: string | undefined): string | undefined {
  if (plan.on !== 'update' || !guard) return undefined;
  if (change === 'soft-delete') return guard;
  return `not ${guard}`;
}

/** The key columns in the table's primary-key order (the service's aggregate_id order). */
export function keyColumns(table: GqlTable): GqlColumn[] {
  return table.primaryKey.map((name) => {
    const column = table.columns.find((candidate) => candidate.dbName === name);
    if (!column) throw new WorkbenchError('internal', `${table.key}: primary-key column ${name} is not among its columns`);
    return column;
  });
}

export const tenantColumn = (table: GqlTable): GqlColumn | undefined => table.columns.find((column) => column.dbName === table.tenantColumn);

/** A SQL string literal, its quotes doubled (MariaDB's backslashes: triggers/mysql.ts). */
export function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** What a provider's generator is given: the table, its outbox, and the triggers to write. */
export interface TriggerTarget {
  table: GqlTable;
  outbox: {schema: string; name: string};
  plans: TriggerPlan[];
}

/** One database's triggers (postgres.ts, mysql.ts, sqlite.ts), looked up by provider in writers.ts. */
export interface TriggerWriter {
  /** The statements that (re)install the target's triggers; `names`: every name of the scheme the table can have (those it no longer needs are dropped). */
  install(target: TriggerTarget, names: string[]): string[];
  /** Drops the triggers `names` (and what each needs beside it) on `table`; harmless where there are none. */
  drop(table: Pick<GqlTable, 'schema' | 'dbName'>, names: string[]): string[];
  /** A catalogue query answering every trigger of the database as `name`, `schema` and `table`. */
  readonly catalogSql: string;
  /** Why this database cannot give `table` triggers writing to `outbox`, beyond what every database refuses; undefined: it can. */
  refusal?(table: GqlTable, outbox: {schema: string; name: string; key: string}): string | undefined;
}
