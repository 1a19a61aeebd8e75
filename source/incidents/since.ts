import {parseDuration} from '../core/duration.js';
import {WorkbenchError} from '../core/errors.js';

/**
 * The `since` recency filter of get_errors: a duration (`30s`, `5m`, `2h30m`, `1.5h`, `500ms`,
 * `1d`; units ms, s, m, h, d in any order) or an RFC 3339 timestamp. Returns the cutoff in epoch
 * ms; entries at or after it are kept.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
// A timestamp this far ahead is clock skew between the client and us; further ahead is a mistake.
const FUTURE_SKEW_MS = 60_000;

export function parseSince(value: string, now: number): number {
  const text = typeof value === 'string' ? value.trim() : '';
  const cutoff = text === '' ? undefined : RFC3339.test(text) ? parseTimestamp(text, now) : cutoffOf(text, now);
  if (cutoff === undefined) throw invalidSince(value);
  return cutoff;
}

function cutoffOf(text: string, now: number): number | undefined {
  const duration = parseDuration(text);
  return duration === undefined ? undefined : now - duration;
}

function parseTimestamp(text: string, now: number): number | undefined {
  const [, year, month, day, hour, minute, second] = RFC3339.exec(text)!.map(Number);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  // Date.parse rolls 2024-02-30 over into March; the calendar must have that day.
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day || day < 1) return undefined;
  const ms = Date.parse(text.replace(/[t ]/, 'T').replace(/z$/, 'Z'));
  if (!Number.isFinite(ms) || ms > now + FUTURE_SKEW_MS) return undefined;
  return ms;
}

function invalidSince(value: unknown): WorkbenchError {
  return new WorkbenchError('invalid_argument', `invalid since "${String(value)}": use a duration like 30s, 5m, 1h or an RFC 3339 timestamp`);
}
