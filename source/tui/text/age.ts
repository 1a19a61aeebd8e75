import {formatAge} from '../../incidents/age.js';

// Ages move in steps of this many seconds, all of them at once.
const STEP_MS = 10_000;

/**
 * How long ago `since` was, as the Incidents pane shows it: as `get-incidents` prints it (`5m`,
 * `2h`, `4d`), in tens of seconds within the first minute (`<10s`, `20s`), and counted from the
 * wall clock's last ten seconds. Every age on the screen then moves in the same tick, at most
 * once every ten seconds, however many fresh incidents there are (each one's own second would
 * be a frame of its own); an age reads up to ten seconds young.
 */
export function shownAge(now: number, since: number): string {
  const ms = now - (now % STEP_MS) - since;
  const seconds = Number.isFinite(ms) ? Math.max(0, Math.floor(ms / 1000)) : 0;
  if (seconds >= 60) return formatAge(ms);
  return seconds < STEP_MS / 1000 ? `<${STEP_MS / 1000}s` : `${seconds - (seconds % (STEP_MS / 1000))}s`;
}
