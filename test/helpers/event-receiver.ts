// A webhook consumer for the change-event tests: a real node:http server on 127.0.0.1 that records
// every delivery and checks its signatures the way a receiver written from the documentation
// would — its own HMAC code (not the project's), constant-time comparison, a timestamp tolerance.
import {createHmac, timingSafeEqual} from 'node:crypto';
import http from 'node:http';
import type {AddressInfo} from 'node:net';

export interface Arrival {
  /** The Idempotency-Key header (the outbox id). */
  key: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Date.now() when the body was read. */
  at: number;
  /** What the receiver answered (0: it never answered). */
  status: number;
}

/** What the receiver does with the next request: answer with a status, or never answer. */
export type Answer = number | 'hang' | 'stall';
/** `hang`: no answer at all; `stall`: a 200 head and part of a body, never finished. */

export interface Receiver {
  port: number;
  url: string;
  arrivals: Arrival[];
  /** Decides each answer (default 200); sees the arrival before it is recorded as answered. */
  answer: (arrival: Arrival) => Answer | Promise<Answer>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const hanging = new Set<http.ServerResponse>();
  const receiver: Receiver = {
    port: 0,
    url: '',
    arrivals: [],
    answer: () => 200,
    close: async () => undefined,
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const arrival: Arrival = {
        key: String(request.headers['idempotency-key'] ?? ''),
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
        status: 0,
      };
      void Promise.resolve(receiver.answer(arrival)).then((answer) => {
        if (answer === 'hang' || answer === 'stall') {
          if (answer === 'stall') response.writeHead(200, {'content-length': '100'}).write('part of it');
          hanging.add(response);
          receiver.arrivals.push(arrival);
          return;
        }
        arrival.status = answer;
        receiver.arrivals.push(arrival);
        response.writeHead(answer, {'content-type': 'text/plain'}).end(answer < 300 ? 'ok' : 'no');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** The deliveries a receiver accepted (2xx), in arrival order. */
export const accepted = (receiver: Receiver) => receiver.arrivals.filter((arrival) => arrival.status >= 200 && arrival.status < 300);

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `X-Workbench-Signature: sha256=<hex>[, sha256=<hex>]`: does one of them match `secret`? */
export function verifyWorkbenchSignature(secret: string, arrival: Pick<Arrival, 'headers' | 'body'>): boolean {
  const header = String(arrival.headers['x-workbench-signature'] ?? '');
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(arrival.body, 'utf8')).digest();
  return header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('sha256='))
    .some((part) => {
      const hex = part.slice('sha256='.length);
      return /^[0-9a-f]{64}$/.test(hex) && sameBytes(Buffer.from(hex, 'hex'), expected);
    });
}

/**
 * Standard Webhooks: `webhook-signature` holds space-separated `v1,<base64>` signatures of
 * `<webhook-id>.<webhook-timestamp>.<body>`; the timestamp must be within `toleranceSeconds` of now.
 */
export function verifyStandardWebhook(secret: string, arrival: Pick<Arrival, 'headers' | 'body'>, nowSeconds = Date.now() / 1000, toleranceSeconds = 300): boolean {
  const id = arrival.headers['webhook-id'];
  const timestamp = arrival.headers['webhook-timestamp'];
  const header = arrival.headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof header !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${id}.${timestamp}.${arrival.body}`, 'utf8').digest();
  return header.split(' ').some((part) => {
    const [version, signature] = part.split(',', 2);
    return version === 'v1' && signature !== undefined && sameBytes(Buffer.from(signature, 'base64'), expected);
  });
}

/** Per aggregate (the CloudEvents source + the body's table), the ids in the order they first arrived. */
export function firstArrivalsByAggregate(arrivals: Arrival[]): Map<string, number[]> {
  const seen = new Set<string>();
  const byAggregate = new Map<string, number[]>();
  for (const arrival of arrivals) {
    if (seen.has(arrival.key)) continue;
    seen.add(arrival.key);
    const event = JSON.parse(arrival.body) as {source: string};
    const list = byAggregate.get(event.source) ?? [];
    list.push(Number(arrival.key));
    byAggregate.set(event.source, list);
  }
  return byAggregate;
}

/**
 * Per row (the CloudEvents source + subject: the table and the row's key), the ids in the order
 * they first arrived: the order the dispatcher keeps (different rows go side by side).
 */
export function firstArrivalsByRow(arrivals: Arrival[]): Map<string, number[]> {
  const seen = new Set<string>();
  const byRow = new Map<string, number[]>();
  for (const arrival of arrivals) {
    if (seen.has(arrival.key)) continue;
    seen.add(arrival.key);
    const event = JSON.parse(arrival.body) as {source: string; subject: string};
    const row = `${event.source} ${event.subject}`;
    const list = byRow.get(row) ?? [];
    list.push(Number(arrival.key));
    byRow.set(row, list);
  }
  return byRow;
}

/** Keys that arrived more than once (accepted each time). */
export function duplicates(arrivals: Arrival[]): string[] {
  const counts = new Map<string, number>();
  for (const arrival of arrivals) counts.set(arrival.key, (counts.get(arrival.key) ?? 0) + 1);
  return [...counts].filter(([, count]) => count > 1).map(([key]) => key);
}

export const ascending = (ids: number[]) => ids.every((id, index) => index === 0 || id > (ids[index - 1] as number));
