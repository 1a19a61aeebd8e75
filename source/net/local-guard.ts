import {WorkbenchError} from '../core/errors.js';

/**
 * The checks that keep a browser out of a local server, as the MCP specification asks of local
 * servers; the fastify kit (servers/kit/local-guard.ts) and the dev proxy (devproxy/) both use them.
 * - DNS rebinding: a page at evil.example that re-resolves its name to 127.0.0.1 reaches the
 *   server with `Host: evil.example`. The Host must name the address the connection came in on
 *   (for loopback: that address or `localhost`) with the listening port, or the public URL's host.
 * - Cross-site writes: a page may send a POST anywhere (`mode: 'no-cors'`) without reading the
 *   answer. A request that is not GET/HEAD/OPTIONS is refused when its `Origin` is not this
 *   server's own or `Sec-Fetch-Site` says another site. Programs (curl, the CLI) send neither.
 * - Cross-site reads, where a server asks for it (GraphQL): an `<img src>` on any page runs a query
 *   too, so there every request is checked as a write is.
 */

/** The connection a request came in on; both absent under fastify's inject(), which has no socket. */
export interface LocalConnection {
  localAddress?: string;
  localPort?: number;
}

export interface SiteHeaders {
  host?: string;
  origin?: string;
  'sec-fetch-site'?: string | string[];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// A Host header as browsers send it: a name or IPv4 address, or a bracketed IPv6 address, then an optional port.
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::(\d{1,5}))?$/i;

/** Whether a method changes state (and so needs the same-site check). */
export function isWriteMethod(method: string | undefined): boolean {
  return !SAFE_METHODS.has(method ?? 'GET');
}

/** The refusal for a Host that names another server, or undefined when the Host is this server's. */
export function hostRefusal(header: string | undefined, connection: LocalConnection, publicUrlText?: string): WorkbenchError | undefined {
  const host = header ?? '';
  const local = localNames(connection.localAddress);
  const port = connection.localPort;
  // Built only to refuse: an Error costs more than the whole check (the dev proxy runs it per request).
  const refusal = () =>
    new WorkbenchError(
      'host_not_allowed',
      `Host ${JSON.stringify(host.slice(0, 100))} does not name this server (a guard against DNS rebinding); use http://${local[0]}${port ? `:${port}` : ''}, or start the server with --public-url for another name`,
    );
  const parsed = HOST.exec(host);
  if (!parsed) return refusal();
  const name = parsed[1]!.toLowerCase().replace(/\.$/, '');
  const hostPort = parsed[2] === undefined ? undefined : Number(parsed[2]);
  // The port is unknown only under app.inject(), which has no socket.
  if (local.includes(name) && (port === undefined || (hostPort ?? 80) === port)) return undefined;
  const publicUrl = parseUrl(publicUrlText);
  // A Host without a port names the default port of the scheme the client used: behind a TLS front, the public URL's.
  if (publicUrl && (hostPort ?? urlPort(publicUrl)) === urlPort(publicUrl) && publicNames(publicUrl).includes(name)) return undefined;
  return refusal();
}

/** The refusal for a request sent by another site's page, or undefined when it came from this server's pages or a program. */
export function crossSiteRefusal(method: string, headers: SiteHeaders, publicUrlText?: string, what: 'writes' | 'requests' = 'writes'): WorkbenchError | undefined {
  const site = headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') {
    return new WorkbenchError(
      'cross_site_refused',
      `${method} from another site refused (Sec-Fetch-Site: ${site}); this API takes ${what} only from its own pages and from programs`,
    );
  }
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  const publicUrl = parseUrl(publicUrlText);
  const own = [`http://${headers.host ?? ''}`.toLowerCase(), ...(publicUrl ? publicNames(publicUrl).map((name) => sameOrigin(publicUrl, name)) : [])];
  if (own.includes(origin.toLowerCase())) return undefined;
  return new WorkbenchError(
    'cross_site_refused',
    `${method} from another site refused (Origin ${JSON.stringify(origin.slice(0, 100))}); this API takes ${what} only from its own pages and from programs`,
  );
}

/** The names a Host may use for the address the request came in on: `127.0.0.1` or `[::1]`, and `localhost` for loopback. */
function localNames(localAddress: string | undefined): string[] {
  const address = localAddress?.replace(/^::ffff:(?=\d+\.)/, '');
  if (address === undefined) return ['127.0.0.1', 'localhost', '[::1]'];
  const name = address.includes(':') ? `[${address}]` : address;
  const loopback = address === '::1' || address.startsWith('127.');
  return loopback ? [name, 'localhost'] : [name];
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The names the public URL's server answers to: its host, and for a loopback URL every loopback
 * name (`https://localhost:5001` is reached as 127.0.0.1 or [::1] too, and a browser resolves
 * localhost to either). No other site can send those names: rebinding needs a name of its own.
 */
function publicNames(url: URL): string[] {
  const name = url.hostname.toLowerCase();
  return LOOPBACK_NAMES.includes(name) ? LOOPBACK_NAMES : [name];
}

function urlPort(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

/** The origin of `url` under another host name. */
function sameOrigin(url: URL, name: string): string {
  return `${url.protocol}//${name}${url.port ? `:${url.port}` : ''}`;
}

function parseUrl(text: string | undefined): URL | undefined {
  if (!text) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
