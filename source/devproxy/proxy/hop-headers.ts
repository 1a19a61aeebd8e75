import type {IncomingHttpHeaders, OutgoingHttpHeaders} from 'node:http';

// Headers that describe one connection, not the message (RFC 9110 §7.6.1): never forwarded.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** The end-to-end headers of a message: a copy without hop-by-hop headers and those its Connection header names. */
export function endToEndHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = headers.connection && headers.connection !== 'keep-alive' && headers.connection !== 'close' ? headers.connection.toLowerCase().split(/\s*,\s*/) : undefined;
  const copy: OutgoingHttpHeaders = {};
  for (const name in headers) {
    if (HOP_BY_HOP.has(name) || named?.includes(name)) continue;
    copy[name] = headers[name];
  }
  return copy;
}
