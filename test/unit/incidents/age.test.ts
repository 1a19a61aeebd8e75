import {describe, expect, it} from 'vitest';
import {formatAge} from '../../../source/incidents/age.js';

describe('formatAge', () => {
  it.each([
    [0, '0s'],
    [5_400, '5s'],
    [59_999, '59s'],
    [60_000, '1m'],
    [3 * 60_000 + 59_000, '3m'],
    [2 * 3_600_000 + 10 * 60_000, '2h'],
    [4 * 86_400_000 + 3_600_000, '4d'],
    [-2_000, '0s'],
  ])('%i ms reads %s', (ms, text) => {
    expect(formatAge(ms)).toBe(text);
  });
});
