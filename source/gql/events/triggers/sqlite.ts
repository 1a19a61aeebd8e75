import {dialectOf} from '../../dialect/dialect-of.js';
import type {GqlColumn} from '../../types.js';
import {branchGuard, branchRows, keyColumns, opOf, softDeleteGuard, sqlText, tenantColumn, type Change, type TriggerPlan, type TriggerTarget, type TriggerWriter} from './shape.js';

const q = dialectOf('sqlite').quoteIdentifier;
const text = sqlText;

/** A column's value as the service's payload holds it: json_object refuses BLOBs, jsonValue writes them as hex. */
function value(column: GqlColumn, row: 'NEW' | 'OLD'): string {
  const ref = `${row}.${q(column.dbName)}`;
  if (column.kind === 'binary') return `case when ${ref} is null then null else lower(hex(${ref})) end`;
  return ref;
}

/** A SQLite trigger cannot read the row as a whole: the image lists the model's columns (re-install after adding one). */
function image(target: TriggerTarget, row: 'NEW' | 'OLD'): string {
  return `json_object(${target.table.columns.map((column) => `${text(column.dbName)}, ${value(column, row)}`).join(', ')})`;
}

function keyObject(target: TriggerTarget, row: 'NEW' | 'OLD'): string {
  return `json_object(${keyColumns(target.table)
    .map((column) => `${text(column.dbName)}, ${value(column, row)}`)
    .join(', ')})`;
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
    case 'update': {
      // The (column, old, new) triples as rows, the unchanged filtered out (IS NOT: null-safe), folded into one object.
      const triples = columns.map(
        (column, at) =>
          `select ${text(column.dbName)}${at === 0 ? ' as c' : ''}, ${value(column, 'OLD')}${at === 0 ? ' as o' : ''}, ${value(column, 'NEW')}${at === 0 ? ' as n' : ''}`,
      );
      return `(select json_group_object(c, json_object('old', o, 'new', n)) from (${triples.join(' union all ')}) where o is not n)`;
    }
  }
}

function branchInsert(target: TriggerTarget, plan: TriggerPlan, change: Change): string {
  const {table, outbox} = target;
  const rows = branchRows(change);
  const mode = table.events?.payload ?? 'full';
  const op = text(opOf(change));
  const members = [`'table', ${text(table.key)}`, `'op', ${op}`, `'key', ${keyObject(target, rows.key)}`];
  if (mode === 'full') {
    if (rows.before) members.push(`'before', ${image(target, 'OLD')}`);
    if (rows.after) members.push(`'after', ${image(target, 'NEW')}`);
  } else if (mode === 'changed') members.push(`'changes', ${changes(target, change)}`);
  const tenant = tenantColumn(table);
  const tenants = rows.tenant.map((row) => (tenant ? `cast(${value(tenant, row)} as text)` : 'null'));
  const tenantValue = tenants.length > 1 ? `coalesce(${tenants.join(', ')})` : tenants[0];
  const guard = branchGuard(plan, change, softDeleteGuard(table, q));
  // Unqualified: SQLite allows no schema-qualified table inside a trigger body (the outbox lives in the same database).
  return `  insert into ${q(outbox.name)} (aggregate, aggregate_id, op, payload, tenant, created_at)
  select ${text(table.key)}, ${keyObject(target, rows.key)}, ${op}, json_object(${members.join(', ')}), ${tenantValue}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')${guard ? `\n  where ${guard}` : ''};`;
}

/** One AFTER … FOR EACH ROW trigger per operation; a soft-delete table's UPDATE trigger holds two guarded inserts. */
export function sqliteTriggerStatements(target: TriggerTarget): string[] {
  const {table} = target;
  return target.plans.map(
    (plan) => `create trigger ${q(plan.name)} after ${plan.on} on ${q(table.dbName)} for each row
begin
${plan.branches.map((change) => branchInsert(target, plan, change)).join('\n')}
end`,
  );
}

export function sqliteDropStatements(names: string[]): string[] {
  return names.map((name) => `drop trigger if exists ${q(name)}`);
}

/** SQLite's triggers: dropped and created again inside the install's one transaction; one database (`main`) holds them all. */
export const sqliteTriggers: TriggerWriter = {
  install: (target, names) => [...sqliteDropStatements(names), ...sqliteTriggerStatements(target)],
  drop: (_table, names) => sqliteDropStatements(names),
  catalogSql: `select name, 'main' as "schema", tbl_name as "table" from sqlite_master where type = 'trigger'`,
  refusal(table, outbox) {
    if (table.schema === 'main' && outbox.schema === 'main') return undefined;
    return `${table.key}: SQLite triggers write only within their own database, and the table and the outbox (${outbox.key}) must both be in main`;
  },
};
