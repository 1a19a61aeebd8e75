import type {IncomingHttpHeaders, OutgoingHttpHeaders} from 'node:http';

// Headers that describe one connection, not the message (RFC 9110 §7.6.1): never forwarded.
// `expect` too: Node's server has answered 100-continue already, and the client library refuses it.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect']);

/** The end-to-end headers of a message: a copy without hop-by-hop headers and those its Connection header names. */
export function endToEndHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const connection = headers.connection;
  const named = typeof connection === 'string' && connection !== 'keep-alive' && connection !== 'close' ? connection.toLowerCase().split(/\s*,\s*/) : undefined;
  const copy: OutgoingHttpHeaders = {};
  for (const name in headers) {
    if (HOP_BY_HOP.has(name) || named?.includes(name)) continue;
    copy[name] = headers[name];
  }
  return copy;
}
