import {WorkbenchError} from '../../core/errors.js';
import type {Visibility} from '../types.js';

// The service checks its own input: the CLI and the TUI call it in-process, past no HTTP schema.

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
const NAME_LIMIT = 200;
// An ISO 8601 date-time with an explicit zone; Date.parse alone also takes "March 7" and local times.
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))$/i;

/**
 * Milliseconds of a strict ISO 8601 date-time with a zone, or NaN. Date.parse rolls impossible
 * fields over (Feb 30 → Mar 2), so the calendar fields must survive a round trip unchanged.
 */
export function strictIsoTime(value: unknown): number {
  const match = typeof value === 'string' ? ISO_DATE_TIME.exec(value) : null;
  if (!match) return NaN;
  const [year, month, day, hour, minute, second = 0, zoneHours = 0, zoneMinutes = 0] = [1, 2, 3, 4, 5, 6, 9, 10].map((group) =>
    match[group] === undefined ? undefined : Number(match[group]),
  );
  const fields = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second));
  if (year! < 1 || fields.getUTCFullYear() !== year || fields.getUTCMonth() !== month! - 1 || fields.getUTCDate() !== day) return NaN;
  if (fields.getUTCHours() !== hour || fields.getUTCMinutes() !== minute || fields.getUTCSeconds() !== second) return NaN;
  if (zoneHours > 23 || zoneMinutes > 59) return NaN;
  return Date.parse(value as string);
}

export function positiveId(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw new WorkbenchError('invalid_argument', `${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return value;
}

export function pageSize(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_PAGE_SIZE;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_PAGE_SIZE) {
    throw new WorkbenchError('invalid_argument', `limit must be a whole number 1–${MAX_PAGE_SIZE}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** `before` and `before_id` come together (a cursor this API issued) or not at all. */
export function pageCursor(before: unknown, beforeId: unknown): {sortAt: number; id: number} | undefined {
  if (before === undefined && beforeId === undefined) return undefined;
  if (before === undefined || beforeId === undefined) throw new WorkbenchError('invalid_argument', 'invalid cursor: pass both before and before_id from nextCursor');
  const sortAt = strictIsoTime(before);
  if (!Number.isFinite(sortAt)) throw new WorkbenchError('invalid_argument', `invalid cursor: before must be an ISO 8601 time, got ${JSON.stringify(before)}`);
  if (typeof beforeId !== 'number' || !Number.isSafeInteger(beforeId) || beforeId < 1)
    throw new WorkbenchError('invalid_argument', `invalid cursor: before_id must be a positive integer, got ${JSON.stringify(beforeId)}`);
  return {sortAt, id: beforeId};
}

/** A snooze time: ISO 8601 with a zone, strictly in the future. */
export function snoozeUntil(value: unknown, nowMs: number): number {
  const ms = strictIsoTime(typeof value === 'string' ? value.trim() : value);
  if (!Number.isFinite(ms))
    throw new WorkbenchError('invalid_argument', `until must be an ISO 8601 time with a zone (e.g. 2030-01-31T09:00:00Z) or null, got ${JSON.stringify(value)}`);
  if (ms <= nowMs) throw new WorkbenchError('invalid_argument', `until is in the past (${new Date(ms).toISOString()}); give a future time or null to unsnooze`);
  return ms;
}

/** A category or a title: trimmed, non-empty, at most 200 characters. */
export function name(value: unknown, what: string): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) throw new WorkbenchError('invalid_argument', `${what} must be a non-empty string`);
  if (text.length > NAME_LIMIT) throw new WorkbenchError('invalid_argument', `${what} is longer than ${NAME_LIMIT} characters`);
  return text;
}

export function optionalName(value: unknown, what: string): string | null {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '') ? null : name(value, what);
}

export function visibility(value: unknown): Visibility {
  if (value === 'public' || value === 'private') return value;
  throw new WorkbenchError('invalid_argument', `visibility must be "public" or "private", got ${JSON.stringify(value)}`);
}

export function readFlag(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new WorkbenchError('invalid_argument', `read must be true or false, got ${JSON.stringify(value)}`);
  return value;
}
