import type {FastifyInstance, FastifyRequest} from 'fastify';
import {WorkbenchError} from '../../source/core/errors.js';

/** Route config of a route any site may reach (`{config: {public: true}}`): the Host check skips it. */
export interface PublicRouteConfig {
  public?: boolean;
}

export interface GuardOptions {
  /** The address others reach the server at (behind a proxy, a forwarded port): its host and origin are this server's too. */
  publicUrl?: () => string | undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// A Host header as browsers send it: a name or IPv4 address, or a bracketed IPv6 address, then an optional port.
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::(\d{1,5}))?$/i;

/**
 * Keeps the browser out of a local server, as the MCP specification asks of local servers:
 * - DNS rebinding: a page at evil.example that re-resolves its name to 127.0.0.1 reaches the
 *   server with `Host: evil.example`. The Host must name the address the connection came in on
 *   (for loopback: that address or `localhost`) with the listening port, or the public URL's host.
 * - Cross-site writes: a page may send a POST anywhere (`mode: 'no-cors'`) without reading the
 *   answer. A request that is not GET/HEAD/OPTIONS is refused when its `Origin` is not this
 *   server's own or `Sec-Fetch-Site` says another site. Programs (curl, the CLI) send neither.
 * Routes marked public (`config: {public: true}`, e.g. a shared RSS feed) skip the Host check.
 */
export function installLocalGuard(app: FastifyInstance, options: GuardOptions = {}): void {
  app.addHook('onRequest', async (request) => {
    const isPublic = (request.routeOptions.config as PublicRouteConfig | undefined)?.public === true;
    if (!isPublic) checkHost(request, options);
    if (!SAFE_METHODS.has(request.method)) checkSite(request, options);
  });
}

function checkHost(request: FastifyRequest, options: GuardOptions): void {
  const header = request.headers.host ?? '';
  const local = localAddress(request);
  const port = request.socket.localPort;
  const usable = `http://${local.names[0]}${port ? `:${port}` : ''}`;
  const refuse = () =>
    new WorkbenchError(
      'host_not_allowed',
      `Host ${JSON.stringify(header.slice(0, 100))} does not name this server (a guard against DNS rebinding); use ${usable}, or start the server with --public-url for another name`,
    );
  const parsed = HOST.exec(header);
  if (!parsed) throw refuse();
  const name = parsed[1]!.toLowerCase().replace(/\.$/, '');
  const hostPort = parsed[2] === undefined ? 80 : Number(parsed[2]);
  const named = local.names.includes(name);
  // The port is unknown only under app.inject(), which has no socket.
  if (named && (port === undefined || hostPort === port)) return;
  const publicUrl = parseUrl(options.publicUrl?.());
  if (publicUrl && `${name}:${hostPort}` === `${publicUrl.hostname}:${publicUrl.port || (publicUrl.protocol === 'https:' ? 443 : 80)}`) return;
  throw refuse();
}

function checkSite(request: FastifyRequest, options: GuardOptions): void {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') {
    throw new WorkbenchError(
      'cross_site_refused',
      `${request.method} from another site refused (Sec-Fetch-Site: ${site}); this API takes writes only from its own pages and from programs`,
    );
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const own = [`http://${request.headers.host ?? ''}`.toLowerCase(), parseUrl(options.publicUrl?.())?.origin];
  if (!own.includes(origin.toLowerCase())) {
    throw new WorkbenchError(
      'cross_site_refused',
      `${request.method} from another site refused (Origin ${JSON.stringify(origin.slice(0, 100))}); this API takes writes only from its own pages and from programs`,
    );
  }
}

/** The names a Host may use for the address the request came in on: `127.0.0.1` or `[::1]`, and `localhost` for loopback. */
function localAddress(request: FastifyRequest): {names: string[]} {
  const address = request.socket.localAddress?.replace(/^::ffff:(?=\d+\.)/, '');
  // app.inject() has no socket: it stands for a loopback connection.
  if (address === undefined) return {names: ['127.0.0.1', 'localhost', '[::1]']};
  const name = address.includes(':') ? `[${address}]` : address;
  const loopback = address === '::1' || address.startsWith('127.');
  return {names: loopback ? [name, 'localhost'] : [name]};
}

function parseUrl(text: string | undefined): URL | undefined {
  if (!text) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
