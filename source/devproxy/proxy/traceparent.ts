import {randomFillSync} from 'node:crypto';

/** A W3C Trace Context `traceparent` (version 00): keeps the caller's trace, names our hop as the parent span. */
export interface TraceContext {
  traceId: string;
  header: string;
}

// version-traceid-parentid-flags; all-zero ids are invalid (W3C Trace Context §3.2.2).
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-|$)/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

// Random bytes are drawn in batches: one getrandom call per 256 requests instead of one each.
const pool = Buffer.alloc(24 * 256);
let used = pool.length;

function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString('hex', used, used + bytes);
  used += bytes;
  return hex;
}

export function traceFor(incoming: string | string[] | undefined): TraceContext {
  const match = typeof incoming === 'string' ? TRACEPARENT.exec(incoming.trim().toLowerCase()) : null;
  if (match && match[1] !== 'ff' && match[2] !== ZERO_TRACE && match[3] !== ZERO_SPAN) {
    return {traceId: match[2]!, header: `00-${match[2]}-${randomHex(8)}-${match[4]}`};
  }
  // A new trace: its id and our span in one draw, 32 then 16 hex digits.
  const ids = randomHex(24);
  const traceId = ids.slice(0, 32);
  return {traceId, header: `00-${traceId}-${ids.slice(32)}-01`};
}
