import type {HttpLogEntry} from './types.js';
import {isWebSocketUrl, requestPath} from './request-path.js';

/**
 * HTTP noise filter (spec 1, get_errors rule 3): redirects and not-modified answers, and 404s of
 * things a dev page asks for that nobody needs to fix (source maps, favicons, HMR traffic).
 */

const DROPPED_STATUSES = new Set([301, 302, 304]);
// 404s of static assets and of dev tooling, matched in the lower-cased path.
const NOISY_404_FRAGMENTS = ['favicon', '.hot-update.', '__webpack_hmr', 'sockjs-node'];

export function isNoise(entry: Pick<HttpLogEntry, 'status' | 'url'>): boolean {
  if (DROPPED_STATUSES.has(entry.status)) return true;
  if (entry.status !== 404) return false;
  if (isWebSocketUrl(entry.url)) return true;
  const path = requestPath(entry.url).toLowerCase();
  if (path.endsWith('.map')) return true;
  for (const fragment of NOISY_404_FRAGMENTS) if (path.includes(fragment)) return true;
  return false;
}
