import http from 'node:http';
import https from 'node:https';
import {Readable} from 'node:stream';
import {AddressGuard, type AddressPolicy} from './address-policy.js';
import type {Network} from './safe-lookup.js';

/**
 * A WHATWG `fetch` for SDKs that take one (the model SDKs), on node:http with the address policy
 * checked on the address actually connected to (the guard's lookup), and IP literals before any
 * packet. Connections are kept alive per fetch (a turn loop talks to one host many times); each
 * new connection resolves and is checked afresh. Redirects are not followed: the caller sees the
 * 3xx and says where it points. The body streams (SSE arrives as it is sent).
 */
export function guardedFetch(policy: AddressPolicy, network?: Network): typeof fetch {
  const guard = new AddressGuard(policy, network);
  const agents = new Map<string, http.Agent>();
  const agentFor = (url: URL): http.Agent => {
    let agent = agents.get(url.protocol);
    if (!agent) {
      const options = {keepAlive: true, lookup: guard.lookupFor(url)};
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      agents.set(url.protocol, agent);
    }
    return agent;
  };

  return (async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol ${url.protocol}`);
    guard.checkLiteral(url);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const body = await requestBody(init.body);
    const request = url.protocol === 'https:' ? https.request : http.request;
    return new Promise<Response>((resolve, reject) => {
      const req = request(url, {method: init.method ?? 'GET', headers, agent: agentFor(url), signal: init.signal ?? undefined}, (res) => {
        const responseHeaders = new Headers();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        const status = res.statusCode ?? 502;
        const empty = status === 204 || status === 304 || init.method === 'HEAD';
        if (empty) res.resume();
        resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {status, statusText: res.statusMessage ?? '', headers: responseHeaders}));
      });
      req.on('error', reject);
      req.end(body);
    });
  }) as typeof fetch;
}

async function requestBody(body: RequestInit['body']): Promise<Buffer | string | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // Streams, FormData, Blob: let the platform serialise them.
  return Buffer.from(await new Response(body).arrayBuffer());
}
