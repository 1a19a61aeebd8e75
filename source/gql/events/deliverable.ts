import type {EventSubscription, GqlModel} from '../types.js';
import type {OutboxEvent} from './outbox-store.js';
import type {EventPayload} from './payload.js';

/**
 * Whether the sinks receive an event, as the `subscription-*` keys say: with none every event
 * goes; `subscription-tables` is a fail-closed allow-list by aggregate (an empty list delivers
 * nothing); `subscription-tenant` delivers that tenant's rows only (rows without a tenant never).
 */
export function deliverable(subscription: EventSubscription | undefined, event: Pick<OutboxEvent, 'aggregate' | 'tenant'>): boolean {
  if (!subscription) return true;
  if (subscription.tables && !subscription.tables.some((table) => table.toLowerCase() === event.aggregate.toLowerCase())) return false;
  if (subscription.tenant !== undefined && event.tenant !== subscription.tenant) return false;
  return true;
}

/**
 * The payload with `subscription-redact`'s columns stripped from every image and change list —
 * never the key columns of the event's table (a consumer could not tell rows apart without them).
 */
export function redacted(model: GqlModel, payload: EventPayload): EventPayload {
  const redact = model.events?.subscription?.redact ?? [];
  if (redact.length === 0) return payload;
  const keys = new Set((model.byKey.get(payload.table)?.primaryKey ?? Object.keys(payload.key)).map((column) => column.toLowerCase()));
  const strip = new Set(redact.map((column) => column.toLowerCase()).filter((column) => !keys.has(column)));
  const clean = <T extends Record<string, unknown>>(image: T | undefined): T | undefined => {
    if (!image) return image;
    const out: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(image)) if (!strip.has(column.toLowerCase())) out[column] = value;
    return out as T;
  };
  const out: EventPayload = {...payload};
  if (payload.before) out.before = clean(payload.before);
  if (payload.after) out.after = clean(payload.after);
  if (payload.changes) out.changes = clean(payload.changes);
  return out;
}
