// `2026-01-02`, `2026-01-02 03:04:05.123456`, `2026-01-02T03:04:05`, with or without a zone (`Z`, `+02`, `+02:00`, `+0200`).
const SQL_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * A timestamp column's value as the database's JSON writes it, in milliseconds (NaN when it is
 * not a time). A time without a zone (`timestamp`, `datetime`, a date) is read as UTC: the feed
 * must say one instant, and the server's own zone would make it depend on where it runs.
 * Numbers are Unix time: seconds, or milliseconds when that large.
 */
export function timestampMillis(value: unknown): number {
  if (typeof value === 'number') return Math.abs(value) < 1e11 ? value * 1000 : value;
  if (typeof value !== 'string') return Number.NaN;
  const match = SQL_TIME.exec(value.trim());
  if (!match) return Date.parse(value);
  const [, date, hourMinute = '00:00', second = '00', fraction = '', zone = 'Z'] = match;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 3 ? `${zone}:00` : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return Date.parse(`${date}T${hourMinute}:${second}.${fraction.padEnd(3, '0').slice(0, 3)}${offset}`);
}
