import http, {type IncomingHttpHeaders, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {startProxy, type ProxyRuntime} from '../../../source/devproxy/start-proxy.js';
import type {DevProxy, ProxyOptions} from '../../../source/devproxy/types.js';

/** A page script that only marks the page: enough to see where and how often it was injected. */
export const MARK_SCRIPT = 'window.__injected = (window.__injected || 0) + 1;';

export interface TestTarget {
  url: string;
  port: number;
  server: http.Server;
  close(): Promise<void>;
}

/** A dev server stand-in on a free port of 127.0.0.1, answering with `handler`. */
export async function startTarget(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<TestTarget> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function startTestProxy(target: string, options: Partial<ProxyOptions> = {}, runtime: Partial<ProxyRuntime> = {}): Promise<DevProxy> {
  return startProxy({id: 'test', target, ...options}, {pageScript: MARK_SCRIPT, ...runtime});
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
  text: string;
}

/** One request over a fresh connection, answer read whole and not decoded: what is on the wire. */
export function request(url: string, options: {method?: string; headers?: Record<string, string>; body?: string | Buffer} = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // An explicit length: Node sends neither length nor chunks for a DELETE or OPTIONS body of its own accord.
    const headers = options.body === undefined ? options.headers : {'content-length': String(Buffer.byteLength(options.body)), ...options.headers};
    const outgoing = http.request(url, {method: options.method ?? 'GET', headers, agent: false}, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({status: response.statusCode ?? 0, headers: response.headers, rawHeaders: response.rawHeaders, body, text: body.toString('utf8')});
      });
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}
