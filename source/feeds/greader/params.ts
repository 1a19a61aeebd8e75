import {WorkbenchError} from '../../core/errors.js';

/** A form or query as the routes hand it: a field may repeat (`i=1&i=2`). */
export type Fields = Record<string, string | string[] | undefined>;

export function all(fields: Fields, name: string): string[] {
  const value = fields[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

export function one(fields: Fields, name: string): string | undefined {
  return all(fields, name)[0];
}

export function count(fields: Fields, name: string, fallback: number, max: number): number {
  const text = one(fields, name);
  if (text === undefined || text === '') return fallback;
  if (!/^\d{1,9}$/.test(text)) throw new WorkbenchError('invalid_argument', `${name} must be a whole number, got "${text.slice(0, 20)}"`);
  return Math.min(max, Math.max(1, Number(text)));
}

/** Epoch seconds (ot, nt, ts may also come in microseconds: clients differ). */
export function epochMs(fields: Fields, name: string): number | undefined {
  const text = one(fields, name);
  if (text === undefined || text === '') return undefined;
  if (!/^\d{1,19}$/.test(text)) throw new WorkbenchError('invalid_argument', `${name} must be a time in seconds since 1970, got "${text.slice(0, 20)}"`);
  const value = Number(text);
  return value > 1e14 ? Math.floor(value / 1000) : value > 1e11 ? value : value * 1000;
}

/** The continuation token: an opaque keyset on (sort_at, id). */
export function encodeContinuation(sortAt: number, id: number): string {
  return Buffer.from(`${sortAt}:${id}`).toString('base64url');
}

export function decodeContinuation(text: string | undefined): {sortAt: number; id: number} | undefined {
  if (text === undefined || text === '') return undefined;
  const match = /^(-?\d{1,16}):(\d{1,12})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match) throw new WorkbenchError('invalid_argument', 'c is not a continuation this reader gave');
  return {sortAt: Number(match[1]), id: Number(match[2])};
}
