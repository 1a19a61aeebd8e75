import type {FastifyInstance} from 'fastify';
import {networkInterfaces} from 'node:os';
import {join} from 'node:path';
import {describeError} from '../../../source/core/errors.js';
import {localCertificate, type LocalCertificate} from './cert.js';
import {findCaddy, startCaddy, type CaddyProcess} from './caddy-process.js';

export {findCaddy} from './caddy-process.js';
export {caddyConfig} from './caddy-config.js';
export {localCertificate, type LocalCertificate} from './cert.js';

export interface QuicFrontOptions {
  /** The kit server's plain HTTP URL (`http://127.0.0.1:<port>`): what the front proxies to. */
  upstreamUrl: string;
  /** The HTTPS/HTTP/3 port (GqlService:Http3:HttpsPort, default 5001). */
  port: number;
  /** Where the certificate, Caddy's config and storage go (inside WORKBENCH_HOME). */
  dir: string;
  /** Start-up and later trouble, one line each. */
  warn(line: string): void;
  env?: NodeJS.ProcessEnv;
}

export interface QuicFront {
  /** `https://localhost:<port>`: the same endpoint over HTTP/1.1, HTTP/2 and HTTP/3. */
  url: string;
  certificate: LocalCertificate;
  stop(): Promise<void>;
}

/** The Alt-Svc value that tells a browser the same origin speaks HTTP/3 on `port` (for a day). */
export function altSvc(port: number): string {
  return `h3=":${port}"; ma=86400`;
}

/**
 * HTTP/3 in front of a kit server: Node 20 has no stable QUIC, so Caddy (Debian's 2.6 serves h3
 * natively) listens on `port` with a local certificate and proxies to the node listener. Without
 * Caddy, or when it cannot start, the warning says why (and how to install it) and the server goes
 * on without HTTP/3: undefined.
 */
export async function startQuicFront(options: QuicFrontOptions): Promise<QuicFront | undefined> {
  const binary = findCaddy(options.env);
  if (!binary) {
    options.warn(`HTTP/3 is enabled but Caddy is not installed (apt-get install caddy, or set WORKBENCH_CADDY): serving HTTP/1.1 only`);
    return undefined;
  }
  const upstream = new URL(options.upstreamUrl);
  const hosts = frontHosts(upstream.hostname);
  let certificate: LocalCertificate;
  let caddy: CaddyProcess;
  try {
    certificate = await localCertificate(join(options.dir, 'tls'));
    caddy = await startCaddy(
      binary,
      {hosts, port: options.port, upstream: upstream.host, certFile: certificate.certFile, keyFile: certificate.keyFile, storageDir: join(options.dir, 'storage')},
      options.dir,
      (reason) => options.warn(`HTTP/3 stopped: ${reason}`),
    );
  } catch (error) {
    options.warn(`HTTP/3 is enabled but could not start (${describeError(error)}): serving HTTP/1.1 only`);
    return undefined;
  }
  return {url: `https://localhost:${options.port}`, certificate, stop: () => caddy.stop()};
}

/**
 * Where the front listens: the upstream's address, and for loopback both 127.0.0.1 and ::1 (when
 * the machine has IPv6 loopback): Chromium resolves `localhost` to ::1 first, and a front on
 * 127.0.0.1 alone failed its QUIC handshake there.
 */
export function frontHosts(upstreamHost: string): string[] {
  const host = upstreamHost === 'localhost' ? '127.0.0.1' : upstreamHost.replace(/^\[|\]$/g, '');
  if (host !== '127.0.0.1' && host !== '::1') return [host];
  const hasIpv6Loopback = Object.values(networkInterfaces()).some((addresses) => addresses?.some((address) => address.internal && address.address === '::1'));
  return hasIpv6Loopback ? ['127.0.0.1', '::1'] : ['127.0.0.1'];
}

/** Adds Alt-Svc to every answer of the plain listener, so a client learns the HTTP/3 address. */
export function advertiseHttp3(app: FastifyInstance, port: () => number | undefined): void {
  app.addHook('onSend', async (_request, reply) => {
    const h3 = port();
    if (h3 !== undefined) reply.header('alt-svc', altSvc(h3));
  });
}
