import {createHmac} from 'node:crypto';
import type {OutboxEvent} from './outbox-store.js';
import type {EventPayload} from './payload.js';

/** A CloudEvents 1.0 event in its JSON format: what the webhook receives as its body and NATS as its message. */
export interface CloudEvent {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  subject: string;
  time: string;
  datacontenttype: 'application/json';
  data: EventPayload;
}

/** `type` is `workbench.gql.<op>`; `source` names the table (`/gql/<schema>/<table>`); `subject` is the row's key. */
export function cloudEvent(event: OutboxEvent, data: EventPayload): CloudEvent {
  const [schema, ...table] = event.aggregate.split('.');
  return {
    specversion: '1.0',
    id: String(event.id),
    source: `/gql/${encodeURIComponent(schema ?? '')}/${encodeURIComponent(table.join('.'))}`,
    type: `workbench.gql.${event.op}`,
    subject: event.aggregateId,
    time: new Date(event.createdAt).toISOString(),
    datacontenttype: 'application/json',
    data,
  };
}

export const SIGNATURE_HEADER = 'x-workbench-signature';

/**
 * The signature headers of one delivery, one signature per secret (rotation: a receiver that knows
 * either secret accepts it):
 *
 * - `X-Workbench-Signature: sha256=<hex HMAC-SHA256 of the exact body>[, sha256=<…>]` (upstream's shape);
 * - Standard Webhooks: `webhook-id` (the outbox id), `webhook-timestamp` (Unix seconds) and
 *   `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">[ v1,<…>]` — the
 *   timestamp is inside the signed material, so a receiver can refuse a replay of an old delivery;
 * - `Idempotency-Key`: the outbox id (a redelivery carries the same one).
 *
 * Secrets are used as their UTF-8 bytes.
 */
export function signatureHeaders(body: string, secrets: readonly string[], id: string, timestampSeconds: number): Record<string, string> {
  const headers: Record<string, string> = {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'idempotency-key': id,
  };
  if (secrets.length === 0) return headers;
  headers[SIGNATURE_HEADER] = secrets.map((secret) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`).join(', ');
  headers['webhook-signature'] = secrets.map((secret) => `v1,${createHmac('sha256', secret).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`).join(' ');
  return headers;
}
