import type {IncomingHttpHeaders, OutgoingHttpHeaders} from 'node:http';
import {endToEndHeaders} from './hop-headers.js';
import type {Target} from './target.js';

/**
 * What the browser receives: the target's headers with the target's own address turned into the
 * proxy's (redirects, CORS), and cookies scoped to the target's domain made to stick to the proxy.
 */
export function downstreamHeaders(received: IncomingHttpHeaders, target: Target, proxyOrigin: string): OutgoingHttpHeaders {
  const headers = endToEndHeaders(received);
  const location = received.location;
  if (typeof location === 'string') headers.location = toProxy(location, target, proxyOrigin);
  const allowed = received['access-control-allow-origin'];
  if (typeof allowed === 'string' && allowed.toLowerCase() === target.origin.toLowerCase()) headers['access-control-allow-origin'] = proxyOrigin;
  const cookies = received['set-cookie'];
  if (cookies) headers['set-cookie'] = (Array.isArray(cookies) ? cookies : [cookies]).map((cookie) => withoutTargetDomain(cookie, target));
  return headers;
}

/** An absolute URL at the target becomes the same URL at the proxy; anything else is left alone. */
export function toProxy(location: string, target: Target, proxyOrigin: string): string {
  const match = /^(https?):\/\/([^/?#]+)/i.exec(location);
  if (!match) return location;
  const scheme = match[1]!.toLowerCase();
  const authority = match[2]!.toLowerCase();
  const port = /:\d+$/.test(authority) ? '' : scheme === 'https' ? ':443' : ':80';
  if (!target.aliases.has(authority + port)) return location;
  let rest = location.slice(match[0].length);
  if (target.basePath && rest.startsWith(target.basePath)) rest = rest.slice(target.basePath.length) || '/';
  return proxyOrigin + rest;
}

/** Drops a `Domain` attribute naming the target's host (or a parent of it): the cookie then belongs to the proxy's host. */
export function withoutTargetDomain(cookie: string, target: Target): string {
  if (!/;\s*domain\s*=/i.test(cookie)) return cookie;
  const host = target.hostname.toLowerCase();
  return cookie
    .split(';')
    .filter((part, index) => {
      if (index === 0) return true;
      const attribute = /^\s*domain\s*=\s*\.?(.*?)\s*$/i.exec(part);
      if (!attribute) return true;
      const domain = attribute[1]!.toLowerCase();
      return !(domain === host || host.endsWith(`.${domain}`) || domain === 'localhost');
    })
    .join(';');
}
