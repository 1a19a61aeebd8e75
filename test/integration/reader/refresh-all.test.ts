// refreshAll on the real reader, in process and over HTTP (`workbench feeds refresh` and the Feeds
// pane's R on All articles), against feeds served from 127.0.0.1.
import {mkdtempSync, rmSync} from 'node:fs';
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, expect, it} from 'vitest';
import {createHttpReader} from '../../../source/feeds/client/http-reader.js';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import {createReaderService} from '../../../source/feeds/service/index.js';
import {startReaderServer, type ReaderServer} from '../../../servers/reader/index.js';

const rss = (title: string, items: string[]) => `<?xml version="1.0"?>
<rss version="2.0"><channel><title>${title}</title><link>https://example.org/</link><description>${title}</description>
${items.map((item) => `<item><title>${item}</title><guid>${encodeURIComponent(title + item)}</guid></item>`).join('\n')}
</channel></rss>`;

let dir: string;
let origin: Server;
let base: string;
let server: ReaderServer | undefined;
let reader: ReaderService | undefined;
const items: Record<string, string[]> = {};
const failing = new Set<string>();

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-refresh-all-'));
  Object.assign(items, {'/one.xml': ['One a'], '/two.xml': ['Two a'], '/three.xml': ['Three a']});
  failing.clear();
  origin = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x.invalid').pathname;
    if (failing.has(path) || !items[path]) return void response.writeHead(500).end('no');
    response.writeHead(200, {'content-type': 'application/rss+xml'}).end(rss(path, items[path]!));
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await reader?.close();
  await server?.close();
  reader = undefined;
  server = undefined;
  await new Promise<void>((resolve) => origin.close(() => resolve()));
  rmSync(dir, {recursive: true, force: true});
});

/** Three feeds; then one gains two items, one fails: refreshAll answers for each and goes past the failure. */
async function refreshesEach(service: ReaderService) {
  const ids: number[] = [];
  for (const path of ['/one.xml', '/two.xml', '/three.xml']) {
    const answer = await service.subscribe(base + path);
    if (!('feed' in answer)) throw new Error(`not subscribed: ${path}`);
    ids.push(answer.feed.id);
  }
  items['/one.xml']!.push('One b', 'One c');
  failing.add('/two.xml');
  // In the order the reader lists its feeds (by title).
  const outcomes = await service.refreshAll();
  expect(outcomes.map((outcome) => outcome.id)).toEqual((await service.listFeeds()).map((feed) => feed.id));
  expect(outcomes.sort((a, b) => a.id - b.id)).toEqual([
    {id: ids[0], newArticles: 2},
    {id: ids[1], error: expect.stringMatching(/refreshing feed \d+ failed: HTTP 500/)},
    {id: ids[2], newArticles: 0},
  ]);
  // The failure is on its feed; the feed after it was polled all the same.
  expect((await service.getFeed(ids[1]!)).fetchStatus).toBe('error');
  expect((await service.listArticles({feed_id: ids[0]!, limit: 10})).articles.map((article) => article.title).sort()).toEqual(['One a', 'One b', 'One c']);

  // Given ids: only those, and one gone since it was listed is its own outcome.
  await service.unsubscribe(ids[2]!);
  failing.clear();
  expect(await service.refreshAll([ids[2]!, ids[1]!])).toEqual([
    {id: ids[2], error: `no feed ${ids[2]}`},
    {id: ids[1], newArticles: 0},
  ]);
  expect((await service.getFeed(ids[1]!)).fetchStatus).toBe('ok');
  expect(await service.refreshAll([])).toEqual([]);
}

it('the local service refreshes every feed, one outcome each', async () => {
  reader = await createReaderService({connection: join(dir, 'reader.sqlite')});
  await refreshesEach(reader);
});

it('the HTTP reader answers the same, against `workbench serve reader`', async () => {
  server = await startReaderServer({port: 0, db: join(dir, 'reader.sqlite'), poll: false});
  reader = createHttpReader(server.url);
  await refreshesEach(reader);
});
