import {dialectOf} from '../../dialect/dialect-of.js';
import type {GqlColumn} from '../../types.js';
import {branchGuard, branchRows, keyColumns, opOf, softDeleteGuard, sqlText, tenantColumn, type Change, type TriggerPlan, type TriggerTarget, type TriggerWriter} from './shape.js';

const q = dialectOf('postgres').quoteIdentifier;
const text = sqlText;
const qualified = (schema: string, name: string) => `${q(schema)}.${q(name)}`;

/**
 * A column's value as the service's payload holds it: node-postgres hands bigint and numeric over
 * as text (exact), and jsonValue writes binary as hex — to_jsonb would give numbers and `\x…`.
 */
function value(column: GqlColumn, row: 'NEW' | 'OLD'): string {
  const ref = `${row}.${q(column.dbName)}`;
  if (column.kind === 'bigint' || column.kind === 'decimal') return `${ref}::text`;
  if (column.kind === 'binary') return `encode(${ref}, 'hex')`;
  return ref;
}

/** The whole row as jsonb (to_jsonb follows the table as it is), with the columns the service writes differently overridden. */
function image(target: TriggerTarget, row: 'NEW' | 'OLD'): string {
  const overrides = target.table.columns.filter((column) => ['bigint', 'decimal', 'binary'].includes(column.kind));
  if (overrides.length === 0) return `to_jsonb(${row})`;
  return `to_jsonb(${row}) || jsonb_build_object(${overrides.map((column) => `${text(column.dbName)}, ${value(column, row)}`).join(', ')})`;
}

function keyObject(target: TriggerTarget, row: 'NEW' | 'OLD'): string {
  return `jsonb_build_object(${keyColumns(target.table)
    .map((column) => `${text(column.dbName)}, ${value(column, row)}`)
    .join(', ')})`;
}

/**
 * The key as JSON text exactly as the service writes aggregate_id (JSON.stringify: no spaces, key
 * order of the primary key) — jsonb's own text puts a space after every colon.
 */
function aggregateId(target: TriggerTarget, row: 'NEW' | 'OLD'): string {
  const parts = keyColumns(target.table).map((column, at) => `${text(`${at === 0 ? '{' : ','}${JSON.stringify(column.dbName)}:`)} || to_jsonb(${value(column, row)})::text`);
  return `${parts.join(' || ')} || '}'`;
}

/** `changes` of event-payload: changed, from the two jsonb images (an UPDATE keeps only the columns whose value changed). */
function changes(change: Change): string {
  const pair = (old: string, now: string) => `jsonb_build_object('old', ${old}, 'new', ${now})`;
  switch (change) {
    case 'insert':
      return `(select coalesce(jsonb_object_agg(n.key, ${pair('null', 'n.value')}), '{}'::jsonb) from jsonb_each(wb_new) n)`;
    case 'delete':
      return `(select coalesce(jsonb_object_agg(o.key, ${pair('o.value', 'null')}), '{}'::jsonb) from jsonb_each(wb_old) o)`;
    case 'update':
    case 'soft-delete':
      return `(select coalesce(jsonb_object_agg(n.key, ${pair('o.value', 'n.value')}), '{}'::jsonb) from jsonb_each(wb_new) n join jsonb_each(wb_old) o on o.key = n.key${change === 'update' ? ' where n.value is distinct from o.value' : ''})`;
  }
}

function branchBody(target: TriggerTarget, change: Change): string {
  const {table, outbox} = target;
  const rows = branchRows(change);
  const mode = table.events?.payload ?? 'full';
  const op = text(opOf(change));
  let payload = `jsonb_build_object('table', ${text(table.key)}, 'op', ${op}, 'key', ${keyObject(target, rows.key)})`;
  if (mode === 'full') {
    if (rows.before) payload += ` || jsonb_build_object('before', wb_old)`;
    if (rows.after) payload += ` || jsonb_build_object('after', wb_new)`;
  } else if (mode === 'changed') payload += ` || jsonb_build_object('changes', ${changes(change)})`;
  const tenant = tenantColumn(table);
  const tenants = rows.tenant.map((row) => (tenant ? `(${value(tenant, row)})::text` : 'null'));
  const tenantValue = tenants.length > 1 ? `coalesce(${tenants.join(', ')})` : tenants[0];
  return `insert into ${qualified(outbox.schema, outbox.name)} (aggregate, aggregate_id, op, payload, tenant, created_at)
    values (${text(table.key)}, ${aggregateId(target, rows.key)}, ${op}, ${payload}, ${tenantValue}, now());`;
}

function functionBody(target: TriggerTarget, plan: TriggerPlan): string {
  const images = target.table.events?.payload !== 'keys';
  const declare: string[] = [];
  if (images && plan.on !== 'insert') declare.push(`wb_old jsonb := ${image(target, 'OLD')};`);
  if (images && plan.on !== 'delete') declare.push(`wb_new jsonb := ${image(target, 'NEW')};`);
  const guard = softDeleteGuard(target.table, q);
  let body: string;
  if (plan.branches.length === 2) {
    // A soft-delete table's UPDATE: the stamp is a delete, anything else an update.
    body = `  if ${branchGuard(plan, 'soft-delete', guard)} then
    ${branchBody(target, 'soft-delete')}
  else
    ${branchBody(target, 'update')}
  end if;`;
  } else {
    const change = plan.branches[0] as Change;
    const only = branchGuard(plan, change, guard);
    body = only ? `  if ${only} then\n    ${branchBody(target, change)}\n  end if;` : `  ${branchBody(target, change)}`;
  }
  return `${declare.length > 0 ? `declare\n  ${declare.join('\n  ')}\n` : ''}begin
${body}
  return null;
end`;
}

/**
 * One plpgsql function per table and operation, and its AFTER … FOR EACH ROW trigger. Dropped
 * first so a re-install replaces what an earlier model installed.
 */
export function postgresTriggerStatements(target: TriggerTarget): string[] {
  const {table} = target;
  const statements: string[] = [];
  for (const plan of target.plans) {
    const fn = qualified(table.schema, plan.name);
    statements.push(
      `create function ${fn}() returns trigger language plpgsql as $wb_cdc$
${functionBody(target, plan)}
$wb_cdc$`,
      `create trigger ${q(plan.name)} after ${plan.on} on ${qualified(table.schema, table.dbName)} for each row execute function ${fn}()`,
    );
  }
  return statements;
}

export function postgresDropStatements(table: {schema: string; dbName: string}, names: string[]): string[] {
  return names.flatMap((name) => [`drop trigger if exists ${q(name)} on ${qualified(table.schema, table.dbName)}`, `drop function if exists ${qualified(table.schema, name)}()`]);
}

/** PostgreSQL's triggers: dropped and created again inside the install's one transaction. */
export const postgresTriggers: TriggerWriter = {
  install: (target, names) => [...postgresDropStatements(target.table, names), ...postgresTriggerStatements(target)],
  drop: postgresDropStatements,
  catalogSql: `select trigger_name as name, event_object_schema as "schema", event_object_table as "table" from information_schema.triggers`,
};
