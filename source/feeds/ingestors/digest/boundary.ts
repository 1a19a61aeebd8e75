import type {DigestMode} from '../types.js';

const HOUR = 3_600_000;

/** The next digest boundary after `nowMs`: the next full hour, or the next midnight, in UTC. */
export function nextBoundary(mode: DigestMode, nowMs: number): number | null {
  if (mode === 'realtime') return null;
  const step = mode === 'hourly' ? HOUR : 24 * HOUR;
  return Math.floor(nowMs / step) * step + step;
}

/** The span a digest written at `boundaryMs` covers, for its title. */
export function digestSpan(mode: DigestMode, boundaryMs: number): {from: number; to: number} {
  return {from: boundaryMs - (mode === 'hourly' ? HOUR : 24 * HOUR), to: boundaryMs};
}
