import {WorkbenchError} from '../../core/errors.js';
import type {HeaderSource} from './cache-headers.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const PERMANENT_STATUSES = new Set([301, 308]);

/**
 * Follows redirects one hop at a time (fetch runs with redirect: 'manual') so that loops are named,
 * the hop count is ours, every hop stays http(s), and a run of permanent moves is remembered: the
 * feed's stored URL follows 301/308 up to the first temporary hop, never past it.
 */
export class RedirectChain {
  current: string;
  /** Where the leading run of 301/308 hops ended; null when the first hop was not permanent. */
  permanentUrl: string | null = null;
  private readonly visited: Set<string>;
  private hops = 0;
  private onlyPermanent = true;

  constructor(
    start: string,
    private readonly maxRedirects: number,
  ) {
    this.current = start;
    this.visited = new Set([start]);
  }

  /** The next URL to request when `response` is a redirect, else null. Throws on loops and limits. */
  next(response: {status: number; headers: HeaderSource}): string | null {
    if (!REDIRECT_STATUSES.has(response.status)) return null;
    const from = this.current;
    const location = response.headers.get('location');
    if (!location) throw unreachable(`${from} answered ${response.status} without a Location header`, {status: response.status, url: from});
    let target: URL;
    try {
      target = new URL(location, from);
    } catch {
      throw unreachable(`${from} redirects to an unreadable location ${JSON.stringify(location)}`, {status: response.status, url: from});
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw unreachable(`${from} redirects to a ${target.protocol.replace(/:$/, '')} URL; only http and https are followed`, {status: response.status, url: from});
    }
    target.hash = '';
    const href = target.href;
    if (this.visited.has(href)) throw unreachable(`redirect loop at ${href}`, {status: response.status, url: href, reason: 'redirect_loop'});
    this.hops++;
    if (this.hops > this.maxRedirects) {
      throw unreachable(`too many redirects (more than ${this.maxRedirects}) starting at ${[...this.visited][0]}`, {url: from, reason: 'too_many_redirects'});
    }
    if (this.onlyPermanent && PERMANENT_STATUSES.has(response.status)) this.permanentUrl = href;
    else this.onlyPermanent = false;
    this.visited.add(href);
    this.current = href;
    return href;
  }
}

function unreachable(message: string, details: Record<string, unknown>): WorkbenchError {
  return new WorkbenchError('feed_unreachable', message, {reason: 'redirect', ...details});
}
