import {WorkbenchError} from '../core/errors.js';

const UNIT_MS: Record<string, number> = {s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000};
// When `tomorrow` (and the Feeds pane's `z`) wakes an article: the start of a working morning.
const MORNING_HOUR = 8;

/** 08:00 local time on the day after `now`. */
export function tomorrowMorning(now: Date = new Date()): Date {
  const next = new Date(now);
  next.setDate(next.getDate() + 1);
  next.setHours(MORNING_HOUR, 0, 0, 0);
  return next;
}

/**
 * A snooze time from what a person types: an ISO 8601 time, a duration from now (`30m`, `1h`,
 * `2d`, `1h30m`, `1w`) or `tomorrow` (08:00). Answers ISO 8601; past or unreadable is invalid_argument.
 */
export function parseUntil(text: string, now: Date = new Date(), flag = '--until'): string {
  const value = text.trim().toLowerCase();
  let at: number;
  if (value === 'tomorrow') at = tomorrowMorning(now).getTime();
  else if (/^(\d+[smhdw])+$/.test(value)) at = now.getTime() + durationMs(value);
  else if (/^\d{4}-\d{2}-\d{2}([t ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}:?\d{2})?)?$/.test(value)) at = Date.parse(text.trim().replace(' ', 'T'));
  else throw new WorkbenchError('invalid_argument', `${flag}: expected an ISO 8601 time, a duration like 30m, 1h or 2d, or "tomorrow"; got "${text}"`);
  if (Number.isNaN(at)) throw new WorkbenchError('invalid_argument', `${flag}: "${text}" is not a valid date`);
  if (at <= now.getTime()) throw new WorkbenchError('invalid_argument', `${flag}: ${new Date(at).toISOString()} is in the past`);
  return new Date(at).toISOString();
}

function durationMs(value: string): number {
  let total = 0;
  for (const [, amount, unit] of value.matchAll(/(\d+)([smhdw])/g)) total += Number(amount) * UNIT_MS[unit!]!;
  return total;
}
