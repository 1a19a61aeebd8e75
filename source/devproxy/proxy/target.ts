import {WorkbenchError} from '../../core/errors.js';

/** The dev server a proxy forwards to, parsed once. */
export interface Target {
  /** As given, for messages. */
  text: string;
  secure: boolean;
  hostname: string;
  port: number;
  /** The Host header the target expects: `127.0.0.1:3000`. */
  host: string;
  origin: string;
  /** A path the target's URL names (`/app`), prefixed to every forwarded path; '' for none. */
  basePath: string;
  /** Names of this target that mean the same server (loopback spellings), lower case, with the port. */
  aliases: Set<string>;
}

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

export function parseTarget(text: string): Target {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WorkbenchError('invalid_argument', `target ${JSON.stringify(text.slice(0, 200))} is not a URL; give the dev server's address, e.g. http://127.0.0.1:3000`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WorkbenchError('invalid_argument', `target ${JSON.stringify(text.slice(0, 200))} is not http(s); give the dev server's address, e.g. http://127.0.0.1:3000`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new WorkbenchError('invalid_argument', `target ${JSON.stringify(text.slice(0, 200))} carries credentials, a query or a fragment; give only scheme, host, port and path`);
  }
  const secure = url.protocol === 'https:';
  const port = url.port ? Number(url.port) : secure ? 443 : 80;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const aliases = new Set([url.host.toLowerCase(), `${url.hostname.toLowerCase()}:${port}`]);
  if (LOOPBACK.includes(url.hostname.toLowerCase()) || url.hostname.startsWith('127.')) for (const name of LOOPBACK) aliases.add(`${name}:${port}`);
  return {text, secure, hostname, port, host: url.host, origin: url.origin, basePath: url.pathname === '/' ? '' : url.pathname.replace(/\/$/, ''), aliases};
}
