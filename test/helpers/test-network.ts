import http from 'node:http';
import type {AddressInfo} from 'node:net';
import type {Network, ResolvedAddress} from '../../source/net/safe-lookup.js';

/** A public-looking address (example.com's); the test network dials 127.0.0.1 for it. */
export const PUBLIC_ADDRESS = '93.184.215.14';

export interface TestNetwork extends Network {
  /** Every name asked, in order. */
  lookups: string[];
}

/**
 * An injected resolver: each name answers the listed addresses, one list per lookup (the last
 * list repeats), so `rebind.test` can answer a public address first and 127.0.0.1 next. Unknown
 * names fail as DNS would. Every dial goes to 127.0.0.1, whatever the address: even a policy bug
 * cannot send a packet off this host.
 */
export function testNetwork(names: Record<string, string | string[][]>): TestNetwork {
  const asked = new Map<string, number>();
  const lookups: string[] = [];
  return {
    lookups,
    async resolve(hostname) {
      lookups.push(hostname);
      const entry = names[hostname];
      if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {code: 'ENOTFOUND'});
      const turn = asked.get(hostname) ?? 0;
      asked.set(hostname, turn + 1);
      const answers = typeof entry === 'string' ? [entry] : entry[Math.min(turn, entry.length - 1)]!;
      return answers.map((address): ResolvedAddress => ({address, family: address.includes(':') ? 6 : 4}));
    },
    dial: () => '127.0.0.1',
  };
}

export interface TestOrigin {
  port: number;
  /** Paths requested, in order. */
  hits: string[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1, port 0, answering with `handle`. */
export async function startOrigin(handle: (request: http.IncomingMessage, response: http.ServerResponse) => void): Promise<TestOrigin> {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    hits.push(request.url ?? '');
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (a server was there a moment ago). */
export async function closedPort(): Promise<number> {
  const origin = await startOrigin(() => undefined);
  await origin.close();
  return origin.port;
}
