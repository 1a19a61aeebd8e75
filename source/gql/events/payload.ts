import type {EventOp, EventPayloadMode, GqlTable, Row} from '../types.js';

/**
 * What an event carries (the outbox's `payload` column, and the CloudEvents `data` the sinks get):
 *
 *   {table: "public.orders", op: "update", key: {id: 7},
 *    before: {...}, after: {...},                   // event-payload: full (before on update and delete)
 *    changes: {status: {old: "new", new: "paid"}}}  // event-payload: changed (update; insert: every column as new)
 *
 * `keys` carries `table`, `op` and `key` only. Values are JSON: dates as ISO text, binary as hex,
 * exact numbers as the database hands them (PostgreSQL bigint and numeric as text).
 */
export interface EventPayload {
  table: string;
  op: EventOp;
  key: Row;
  before?: Row;
  after?: Row;
  changes?: Record<string, {old: unknown; new: unknown}>;
}

/** A database value as JSON keeps it the same on every provider (Buffers as hex, not `{type, data}`). */
export function jsonValue(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('hex');
  if (typeof value === 'bigint') return value.toString();
  return value;
}

export function jsonRow(row: Row): Row {
  const out: Row = {};
  for (const [column, value] of Object.entries(row)) out[column] = jsonValue(value);
  return out;
}

const same = (left: unknown, right: unknown): boolean => JSON.stringify(left) === JSON.stringify(right);

export function buildPayload(mode: EventPayloadMode, table: GqlTable, op: EventOp, key: Row, before: Row | undefined, after: Row | undefined): EventPayload {
  const payload: EventPayload = {table: table.key, op, key: jsonRow(key)};
  if (mode === 'keys') return payload;
  const old = before ? jsonRow(before) : undefined;
  const now = after ? jsonRow(after) : undefined;
  if (mode === 'full') {
    if (old && op !== 'insert') payload.before = old;
    if (now && op !== 'delete') payload.after = now;
    // A soft delete is a delete whose row stays: its stamped image is the after image.
    if (now && op === 'delete') payload.after = now;
    return payload;
  }
  const changes: Record<string, {old: unknown; new: unknown}> = {};
  const columns = new Set([...Object.keys(old ?? {}), ...Object.keys(now ?? {})]);
  for (const column of columns) {
    const was = op === 'insert' ? null : (old?.[column] ?? null);
    const is = op === 'delete' && !now ? null : (now?.[column] ?? null);
    if (op === 'update' && same(was, is)) continue;
    changes[column] = {old: was, new: is};
  }
  payload.changes = changes;
  return payload;
}

/** The row's tenant as the outbox keeps it (text), from whichever image or forced value holds it. */
export function tenantOf(table: GqlTable, ...sources: Array<Row | undefined>): string | null {
  if (!table.tenantColumn) return null;
  for (const source of sources) {
    const value = source?.[table.tenantColumn];
    if (value !== undefined && value !== null) return String(jsonValue(value));
  }
  return null;
}
