import {writeFileSync} from 'node:fs';
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {startServeProcess, type ServeProcess} from './serve-process.js';

/** A proxied feed as `.workbench.kdl` declares it. */
export interface DeclaredFeed {
  name: string;
  origin: string;
  pollInterval?: string;
}

export type GatewayProcess = ServeProcess;

/**
 * `workbench serve gateway --port 0` from dist, as a user starts it: in `project` (whose
 * `.workbench.kdl` declares the feeds) with its own WORKBENCH_HOME from `env`. Ready once it has
 * announced itself in the service registry and its health URL answers.
 */
export async function startGatewayProcess(options: {env: NodeJS.ProcessEnv; home: string; project: string; feeds: DeclaredFeed[]}): Promise<GatewayProcess> {
  const feeds = options.feeds.map((feed) => `  feed "${feed.name}" origin="${feed.origin}" poll-interval="${feed.pollInterval ?? '10m'}"`).join('\n');
  writeFileSync(join(options.project, '.workbench.kdl'), `gateway {\n${feeds}\n}\n`);
  return startServeProcess({name: 'gateway', env: options.env, home: options.home, cwd: options.project});
}

/** An origin on 127.0.0.1 serving one RSS feed per path; `failing` paths answer 500 (the gateway then serves its last good copy, stale). */
export async function startRssOrigin(feeds: Record<string, {title: string; items: string[]}>) {
  const failing = new Set<string>();
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://origin.invalid').pathname;
    const feed = feeds[path];
    if (!feed || failing.has(path)) {
      response.writeHead(feed ? 500 : 404, {'content-type': 'text/plain'}).end('origin down');
      return;
    }
    const items = feed.items.map((title, index) => `<item><title>${title}</title><link>https://example.org/${index}</link><guid>${path}-${index}</guid></item>`).join('');
    response
      .writeHead(200, {'content-type': 'application/rss+xml; charset=utf-8'})
      .end(`<?xml version="1.0"?><rss version="2.0"><channel><title>${feed.title}</title><link>https://example.org/</link><description>d</description>${items}</channel></rss>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {url, feeds, failing, close: () => new Promise<void>((resolve) => server.close(() => resolve()))};
}
