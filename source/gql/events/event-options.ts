import {KEY, SUBSCRIPTION_KEYS} from '../metadata/keys.js';
import type {PropertyReader} from '../model/property-reader.js';
import type {DbModel, DbTable, EventOp, EventSubscription, GqlTable, ModelEvents, ModelProblem} from '../types.js';
import {missingOutboxColumns} from './outbox-contract.js';
import {OWN_OUTBOX_STATEMENTS} from './outbox-statements.js';

const OPS: readonly EventOp[] = ['insert', 'update', 'delete'];

/**
 * A table's `emit-events`, `event-sink` and `event-payload` (spec 3, change events). Presence of
 * `emit-events` opts the table in; an operation it does not know, an empty list, a sink other
 * than `outbox` or a payload other than `full`/`changed`/`keys` is a problem at load, as are
 * `event-sink`/`event-payload` on a table that emits nothing.
 */
export function tableEvents(read: PropertyReader): GqlTable['events'] {
  const sink = read.oneOf(KEY.eventSink, ['outbox'] as const);
  const payload = read.oneOf(KEY.eventPayload, ['full', 'changed', 'keys'] as const);
  if (!read.has(KEY.emitEvents)) {
    for (const key of [KEY.eventSink, KEY.eventPayload]) if (read.has(key)) read.problem(key, `needs ${KEY.emitEvents} on the same table (it says which operations emit)`);
    return undefined;
  }
  const listed = (read.list(KEY.emitEvents) ?? []).map((item) => item.toLowerCase());
  const unknown = listed.filter((item) => !(OPS as readonly string[]).includes(item));
  if (unknown.length > 0) read.problem(KEY.emitEvents, `unknown operation${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: emit-events takes insert, update, delete`);
  if (listed.length === 0) read.problem(KEY.emitEvents, 'names no operation: write insert, update, delete (or some of them)');
  const ops = OPS.filter((op) => listed.includes(op));
  if (ops.length === 0) return undefined;
  return {ops, payload: payload ?? 'full', sink: sink ?? 'outbox', capture: 'service'};
}

/** `schema.table` or `table` (the default schema first, then the only schema holding that name), case-insensitive. */
function findTable(db: DbModel, name: string): DbTable | undefined {
  const lower = name.trim().toLowerCase();
  const exact = db.tables.find((table) => `${table.schema}.${table.name}`.toLowerCase() === lower);
  if (exact) return exact;
  const inDefault = db.tables.find((table) => table.schema === db.defaultSchema && table.name.toLowerCase() === lower);
  if (inDefault) return inDefault;
  const anywhere = db.tables.filter((table) => table.name.toLowerCase() === lower);
  return anywhere.length === 1 ? anywhere[0] : undefined;
}

/**
 * The model's change-event settings: `outbox-table` (required once a table emits; it must exist
 * and carry the outbox column contract), `webhook-secret` and the `subscription-*` keys (unknown
 * ones and tables that do not exist fail). The outbox table itself is hidden from the schema —
 * it holds every tenant's rows — and may not emit events of its own.
 */
export function modelEvents(read: PropertyReader, db: DbModel, tables: GqlTable[], problems: ModelProblem[]): ModelEvents | undefined {
  for (const key of Object.keys(read.props)) {
    if (key.startsWith('subscription-') && !SUBSCRIPTION_KEYS.has(key)) {
      read.problem(key, `${key} is not a subscription key: the spec's are ${[...SUBSCRIPTION_KEYS].join(', ')}`, false);
    }
  }
  const emitting = tables.filter((table) => table.events);
  const outboxName = read.text(KEY.outboxTable);
  if (!outboxName) {
    if (read.has(KEY.outboxTable)) read.problem(KEY.outboxTable, 'is empty: name the outbox table (schema.table)');
    else if (emitting.length > 0) {
      problems.push({
        message: `${emitting.map((table) => table.key).join(', ')} set${emitting.length === 1 ? 's' : ''} emit-events but the model names no outbox-table: add ":root { outbox-table: <schema>.<table>; }" and create it with \`workbench gql events init\``,
        target: ':root',
      });
    }
    return undefined;
  }
  const found = findTable(db, outboxName);
  if (!found) {
    read.problem(KEY.outboxTable, 'no such table in the database: create it with `workbench gql events init` (it writes the column contract)');
    return undefined;
  }
  const missing = missingOutboxColumns(found);
  if (missing.length > 0) read.problem(KEY.outboxTable, `lacks the outbox column contract: no ${missing.join(', ')} column (see \`workbench gql events init --print\`)`);
  const key = `${found.schema}.${found.name}`;
  const outboxTable = tables.find((table) => table.key === key);
  if (outboxTable?.events) problems.push({message: `${key} is the outbox table: it cannot emit events of its own (that would never end)`, target: key});
  if (outboxTable) outboxTable.hidden = true;

  const secrets = read.list(KEY.webhookSecret) ?? [];
  if (read.has(KEY.webhookSecret) && secrets.length === 0) read.problem(KEY.webhookSecret, 'is empty: give one secret, or several separated by commas (rotation)');
  const subscription = subscriptionOf(read, db);
  if (missing.length > 0) return undefined;
  const typeOf = (name: string) => found.columns.find((column) => column.name.toLowerCase() === name)?.dataType.toLowerCase();
  const jsonRows = OWN_OUTBOX_STATEMENTS[db.provider]?.takesJsonDocument(typeOf) ?? false;
  return {outbox: {schema: found.schema, name: found.name, key, ...(jsonRows ? {jsonRows: true as const} : {})}, secrets, ...(subscription ? {subscription} : {})};
}

function subscriptionOf(read: PropertyReader, db: DbModel): EventSubscription | undefined {
  const active = [...SUBSCRIPTION_KEYS].some((key) => read.has(key));
  if (!active) return undefined;
  let tables: string[] | undefined;
  if (read.has(KEY.subscriptionTables)) {
    tables = [];
    for (const name of read.list(KEY.subscriptionTables) ?? []) {
      const table = findTable(db, name);
      if (!table) read.problem(KEY.subscriptionTables, `${KEY.subscriptionTables} names ${name}, which is not a table of the database`, false);
      else tables.push(`${table.schema}.${table.name}`);
    }
  }
  const tenant = read.props[KEY.subscriptionTenant]?.trim();
  if (read.has(KEY.subscriptionTenant) && !tenant) read.problem(KEY.subscriptionTenant, 'is empty: name the tenant whose rows are delivered');
  return {...(tables ? {tables} : {}), ...(tenant ? {tenant} : {}), redact: read.list(KEY.subscriptionRedact) ?? []};
}
