// GET /articles cursor pages stay exact while polls add articles between page requests: no
// article twice, none of the articles present at the start missing, order never broken.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, expect, it} from 'vitest';
import {startFeedOrigin, type FeedOrigin} from '../../../fixtures/feed-origin/server.js';
import {readerHarness, type Harness} from './reader-harness.js';

let origin: FeedOrigin;
let dir: string;
let reader: Harness;

beforeAll(async () => {
  origin = await startFeedOrigin();
  dir = mkdtempSync(join(tmpdir(), 'wb-reader-pages-'));
  reader = await readerHarness(join(dir, 'reader.sqlite'));
});
afterAll(async () => {
  await reader?.close();
  await origin?.close();
  rmSync(dir, {recursive: true, force: true});
});

interface Row {
  id: number;
  publishedAt: string;
}

it('pages stay exact while refreshes and new subscriptions insert articles between requests', async () => {
  // Generated feeds share their timestamps, so articles of different feeds tie on time.
  for (const name of ['one', 'two', 'three']) await reader.call('POST', '/feeds', {url: `${origin.url}/gen/${name}.xml?items=30`});
  const volatile = (await reader.call('POST', '/feeds', {url: `${origin.url}/gen/live.xml?items=10&volatile=1`})).body;
  const everything = (await reader.call('GET', '/articles?limit=200')).body.articles as Row[];
  expect(everything).toHaveLength(100);

  const seen: Row[] = [];
  let query = 'limit=7';
  for (let page = 1; ; page++) {
    const answer = await reader.call('GET', `/articles?${query}`);
    expect(answer.status).toBe(200);
    seen.push(...answer.body.articles);
    const cursor = answer.body.nextCursor;
    if (!cursor) break;
    query = `limit=7&before=${encodeURIComponent(cursor.before)}&before_id=${cursor.before_id}`;
    // Between pages: a newer article (the volatile feed's next revision) and a whole new feed
    // whose items tie with the ones already listed.
    expect((await reader.call('POST', `/feeds/${volatile.id}/refresh`)).body).toEqual({newArticles: 1});
    if (page % 3 === 0) expect((await reader.call('POST', '/feeds', {url: `${origin.url}/gen/late-${page}.xml?items=4`})).status).toBe(201);
  }

  const ids = seen.map((row) => row.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const row of everything) expect(ids).toContain(row.id);
  for (let index = 1; index < seen.length; index++) {
    const [newer, older] = [seen[index - 1]!, seen[index]!];
    const order = Date.parse(older.publishedAt) - Date.parse(newer.publishedAt) || older.id - newer.id;
    expect(order).toBeLessThan(0);
  }
});
