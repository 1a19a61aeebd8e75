import {WorkbenchError} from '../../../core/errors.js';
import {dialectOf} from '../../dialect/dialect-of.js';
import type {GqlColumn} from '../../types.js';
import {branchGuard, branchRows, keyColumns, opOf, softDeleteGuard, sqlText, tenantColumn, type Change, type TriggerPlan, type TriggerTarget, type TriggerWriter} from './shape.js';

const q = dialectOf('mysql').quoteIdentifier;

/** A SQL string literal; MariaDB also reads backslashes as escapes (unless NO_BACKSLASH_ESCAPES, where doubling them is wrong): refuse those names here. */
function text(value: string): string {
  if (value.includes('\\'))
    throw new WorkbenchError(
      'invalid_argument',
      `${value} holds a backslash: MariaDB reads it as an escape or not depending on sql_mode, so no trigger is written for it (rename the table or column)`,
    );
  return sqlText(value);
}
const qualified = (schema: string, name: string) => `${q(schema)}.${q(name)}`;

/**
 * A column's value as the service's payload holds it: mysql2 hands DECIMAL over as text (exact)
 * where JSON_OBJECT would write a number, and a JSON column as the text it is (MariaDB's JSON is
 * LONGTEXT) where JSON_OBJECT would nest it; jsonValue writes binary as hex.
 */
function value(column: GqlColumn, row: 'NEW' | 'OLD'): string {
  const ref = `${row}.${q(column.dbName)}`;
  if (column.kind === 'decimal' || column.kind === 'json' || (column.kind === 'string' && column.dataType.includes('text'))) return `cast(${ref} as char)`;
  if (column.kind === 'binary') return `lower(hex(${ref}))`;
  return ref;
}

/** A MariaDB trigger cannot read the row as a whole: the image lists the model's columns (re-install after adding one). */
function image(target: TriggerTarget, row: 'NEW' | 'OLD'): string {
  return `json_object(${target.table.columns.map((column) => `${text(column.dbName)}, ${value(column, row)}`).join(', ')})`;
}

function keyObject(target: TriggerTarget, row: 'NEW' | 'OLD'): string {
  return `json_object(${keyColumns(target.table)
    .map((column) => `${text(column.dbName)}, ${value(column, row)}`)
    .join(', ')})`;
}

/** Equal as the service compares (JSON text): strings byte for byte, not by a case-insensitive collation. */
function same(column: GqlColumn): string {
  const binary = ['string', 'json', 'uuid'].includes(column.kind);
  const side = (row: 'NEW' | 'OLD') => (binary ? `binary ${value(column, row)}` : value(column, row));
  return `${side('NEW')} <=> ${side('OLD')}`;
}

function changes(target: TriggerTarget, change: Change): string {
  const columns = target.table.columns;
  const pair = (column: GqlColumn, old: string, now: string) => `${text(column.dbName)}, json_object('old', ${old}, 'new', ${now})`;
  switch (change) {
    case 'insert':
      return `json_object(${columns.map((column) => pair(column, 'null', value(column, 'NEW'))).join(', ')})`;
    case 'delete':
      return `json_object(${columns.map((column) => pair(column, value(column, 'OLD'), 'null')).join(', ')})`;
    case 'soft-delete':
      return `json_object(${columns.map((column) => pair(column, value(column, 'OLD'), value(column, 'NEW'))).join(', ')})`;
    case 'update':
      // One object per changed column, merged (JSON_MERGE_PATCH would drop the {"old": null} members).
      return `json_merge_preserve('{}', ${columns
        .map((column) => `if(${same(column)}, '{}', json_object(${pair(column, value(column, 'OLD'), value(column, 'NEW'))}))`)
        .join(', ')})`;
  }
}

/** What one branch writes: the payload (the rest is the same for both branches of an UPDATE). */
function payload(target: TriggerTarget, change: Change): string {
  const {table} = target;
  const rows = branchRows(change);
  const mode = table.events?.payload ?? 'full';
  const members = [`'table', ${text(table.key)}`, `'op', ${text(opOf(change))}`, `'key', ${keyObject(target, rows.key)}`];
  if (mode === 'full') {
    if (rows.before) members.push(`'before', ${image(target, 'OLD')}`);
    if (rows.after) members.push(`'after', ${image(target, 'NEW')}`);
  } else if (mode === 'changed') members.push(`'changes', ${changes(target, change)}`);
  // JSON_COMPACT: the service's JSON.stringify writes no spaces, JSON_OBJECT one after every colon and comma.
  return `json_compact(json_object(${members.join(', ')}))`;
}

/**
 * The SELECT the trigger's INSERT takes its row from. A soft-delete table's UPDATE picks between
 * its two branches with IF() rather than a UNION of two guarded SELECTs: MariaDB refuses to UNION
 * the JSON functions' utf8mb4_bin text with the connection's collation.
 */
function rowSelect(target: TriggerTarget, plan: TriggerPlan): string {
  const {table} = target;
  const first = plan.branches[0] as Change;
  const rows = branchRows(first);
  const tenant = tenantColumn(table);
  const tenants = rows.tenant.map((row) => (tenant ? `cast(${value(tenant, row)} as char)` : 'null'));
  const tenantValue = tenants.length > 1 ? `coalesce(${tenants.join(', ')})` : tenants[0];
  const guard = softDeleteGuard(table, q);
  let op = text(opOf(first));
  let body = payload(target, first);
  let where = branchGuard(plan, first, guard);
  if (plan.branches.length === 2 && guard) {
    const second = plan.branches[1] as Change;
    op = `if(${guard}, ${text(opOf(first))}, ${text(opOf(second))})`;
    body = `if(${guard}, ${body}, ${payload(target, second)})`;
    where = undefined;
  }
  return `select ${text(table.key)}, json_compact(${keyObject(target, rows.key)}), ${op}, ${body}, ${tenantValue}, current_timestamp(6) from dual${where ? ` where ${where}` : ''}`;
}

/**
 * One AFTER … FOR EACH ROW trigger per operation, each a single INSERT … SELECT (no BEGIN … END,
 * so `--print` output runs in the mysql client without a DELIMITER change). A soft-delete
 * table's UPDATE trigger writes a delete when the stamp was set, an update otherwise.
 */
export function mysqlTriggerStatements(target: TriggerTarget): string[] {
  const {table, outbox} = target;
  return target.plans.map(
    (plan) => `create or replace trigger ${qualified(table.schema, plan.name)} after ${plan.on} on ${qualified(table.schema, table.dbName)} for each row
insert into ${qualified(outbox.schema, outbox.name)} (aggregate, aggregate_id, op, payload, tenant, created_at)
${rowSelect(target, plan)}`,
  );
}

export function mysqlDropStatements(table: {schema: string}, names: string[]): string[] {
  // A trigger lives in its table's database: qualified so the connection's default database does not matter.
  return names.map((name) => `drop trigger if exists ${qualified(table.schema, name)}`);
}

/**
 * MariaDB's triggers: it commits each DDL statement, so `create or replace` swaps each planned
 * trigger in one step (no direct write goes uncaptured between a drop and a create); only the
 * names the table no longer needs are dropped.
 */
export const mysqlTriggers: TriggerWriter = {
  install(target, names) {
    const planned = new Set(target.plans.map((plan) => plan.name));
    return [
      ...mysqlDropStatements(
        target.table,
        names.filter((name) => !planned.has(name)),
      ),
      ...mysqlTriggerStatements(target),
    ];
  },
  drop: mysqlDropStatements,
  catalogSql: 'select trigger_name as name, event_object_schema as `schema`, event_object_table as `table` from information_schema.triggers',
};
