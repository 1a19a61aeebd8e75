import {describe, expect, it} from 'vitest';
import {parseSince} from '../../../source/incidents/since.js';
import {NOW} from './records.js';

describe('parseSince (get_errors since)', () => {
  it.each([
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['2h30m', 9_000_000],
    ['1d', 86_400_000],
    ['500ms', 500],
    ['1.5h', 5_400_000],
    ['0s', 0],
  ])('reads the duration %s as that long before now', (value, ms) => {
    expect(parseSince(value, NOW)).toBe(NOW - ms);
  });

  it.each([
    ['2026-11-20T11:00:00Z', Date.parse('2026-11-20T11:00:00Z')],
    ['2026-11-20T11:00:00.250Z', Date.parse('2026-11-20T11:00:00.250Z')],
    ['2026-11-20T13:00:00+02:00', Date.parse('2026-11-20T11:00:00Z')],
    ['2026-11-20 06:30:00-05:00', Date.parse('2026-11-20T11:30:00Z')],
    ['2026-11-20t11:00:00z', Date.parse('2026-11-20T11:00:00Z')],
  ])('reads the RFC 3339 timestamp %s', (value, ms) => {
    expect(parseSince(value, NOW)).toBe(ms);
  });

  it.each([
    '',
    '   ',
    'yesterday',
    '5',
    '5 minutes',
    '-5m',
    '+5m',
    'm5',
    '5M',
    '1h-30m',
    '5mm',
    '2026-11-20',
    '2026-11-20T11:00:00',
    '2026-02-30T10:00:00Z',
    '2026-13-01T10:00:00Z',
    '2026-11-20T25:00:00Z',
    '9'.repeat(400) + 'h',
  ])('rejects %j with a hint at the accepted forms', (value) => {
    expect(() => parseSince(value, NOW)).toThrowError(
      expect.objectContaining({code: 'invalid_argument', message: `invalid since "${value}": use a duration like 30s, 5m, 1h or an RFC 3339 timestamp`}),
    );
  });

  it('rejects a timestamp in the future beyond clock skew', () => {
    expect(() => parseSince('2026-11-21T12:00:00Z', NOW)).toThrowError(/invalid since "2026-11-21T12:00:00Z"/);
    expect(parseSince('2026-11-20T12:00:30Z', NOW)).toBe(NOW + 30_000);
  });
});
