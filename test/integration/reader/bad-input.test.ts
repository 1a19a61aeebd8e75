// Bad input and faults from issue 3, each answered with a 4xx/5xx and {error: {code, message}},
// never a crash or a stack trace. SQLite; the real fetcher, parser and discovery on a local origin.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFeedOrigin, type FeedOrigin} from '../../../fixtures/feed-origin/server.js';
import {buildReaderApp} from '../../../servers/reader/index.js';
import {fetchFeed} from '../../../source/feeds/fetcher/index.js';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import {readerHarness, type Answer, type Harness} from './reader-harness.js';

let origin: FeedOrigin;
let dir: string;
let reader: Harness;
let feedId: number;
let articleId: number;

beforeAll(async () => {
  origin = await startFeedOrigin({slowMs: 5_000});
  dir = mkdtempSync(join(tmpdir(), 'wb-reader-bad-'));
  // A short fetch timeout so the timeout case does not take the default 20 s; long enough for 10 MB of
  // garbage to arrive on a loaded machine (0.5 s was not).
  reader = await readerHarness(join(dir, 'reader.sqlite'), {fetchFeed: (url, options) => fetchFeed(url, {...options, timeoutMs: 2000})});
  feedId = (await reader.call('POST', '/feeds', {url: `${origin.url}/gen/base.xml?items=3`})).body.id;
  articleId = (await reader.call('GET', '/articles?limit=1')).body.articles[0].id;
});
afterAll(async () => {
  await reader?.close();
  await origin?.close();
  rmSync(dir, {recursive: true, force: true});
});

/** The error shape every failure has: exactly {error: {code, message}}, no stack. */
function expectError(answer: Answer, status: number, code: string, message?: RegExp) {
  expect(answer.status).toBe(status);
  expect(Object.keys(answer.body)).toEqual(['error']);
  expect(Object.keys(answer.body.error).sort()).toEqual(['code', 'message']);
  expect(answer.body.error.code).toBe(code);
  if (message) expect(answer.body.error.message).toMatch(message);
  expect(answer.text).not.toMatch(/\n\s+at /);
}

async function raw(method: 'POST' | 'GET', url: string, payload: string, contentType = 'application/json'): Promise<Answer> {
  const response = await reader.app.inject({method, url: `/api/v1${url}`, headers: {'content-type': contentType}, payload});
  return {status: response.statusCode, body: response.json(), text: response.body, headers: response.headers};
}

describe('request bodies', () => {
  it('malformed JSON is 400 invalid_body', async () => {
    expectError(await raw('POST', '/feeds', '{"url": "http://x/feed.xml",'), 400, 'invalid_body', /JSON/);
  });

  it('wrong types are 400 invalid_body, not coerced', async () => {
    expectError(await reader.call('POST', '/feeds', {url: 42}), 400, 'invalid_body', /url/);
    expectError(await reader.call('POST', `/articles/${articleId}/read`, {read: 'true'}), 400, 'invalid_body', /read/);
    expectError(await reader.call('POST', '/lists/1/items', {articleId: '7'}), 400, 'invalid_body', /articleId/);
    expectError(await reader.call('POST', '/lists', {title: 'x', visibility: 'friends'}), 400, 'invalid_body', /visibility/);
    expectError(await raw('POST', '/feeds', '[]'), 400, 'invalid_body');
  });

  it('missing and unknown fields are 400 invalid_body', async () => {
    expectError(await reader.call('POST', '/feeds', {}), 400, 'invalid_body', /url/);
    expectError(await reader.call('POST', '/feeds', {url: `${origin.url}/gen/x.xml`, tags: ['a']}), 400, 'invalid_body', /body has no field "tags"/);
    expectError(await reader.call('POST', `/articles/${articleId}/snooze`, {until: null, why: 'later'}), 400, 'invalid_body');
    expectError(await raw('POST', `/articles/${articleId}/read`, ''), 400, 'invalid_body');
  });

  it('a body over 1 MB is 413 payload_too_large', async () => {
    expectError(await raw('POST', '/feeds', JSON.stringify({url: `http://example.com/${'a'.repeat(2 * 1024 * 1024)}`})), 413, 'payload_too_large');
  });

  it('a content type other than JSON is 415', async () => {
    expectError(await raw('POST', '/feeds', 'url=http://example.com/feed.xml', 'application/x-www-form-urlencoded'), 415, 'invalid_body', /content type/i);
  });

  it('an action endpoint takes an empty JSON body as no body', async () => {
    const answer = await raw('POST', `/feeds/${feedId}/mark-all-read`, '');
    expect(answer).toMatchObject({status: 200, body: {marked: 3}});
  });
});

describe('feed URLs and origins', () => {
  it('a URL that is not http(s) is 400 invalid_argument', async () => {
    for (const url of ['ftp://example.com/feed.xml', 'javascript:alert(1)', 'file:///etc/passwd', 'not a url', 'http://user:pw@example.com/feed']) {
      expectError(await reader.call('POST', '/feeds', {url}), 400, 'invalid_argument');
      expectError(await reader.call('POST', '/feeds/discover', {url}), 400, 'invalid_argument');
    }
  });

  it('a page with no feed is 422 not_a_feed', async () => {
    expectError(await reader.call('POST', '/feeds', {url: `${origin.url}/page/none.html`}), 422, 'not_a_feed');
    expect((await reader.call('POST', '/feeds/discover', {url: `${origin.url}/page/none.html`})).body).toEqual({feeds: []});
  });

  it('an origin that does not answer in time is 502 feed_unreachable', async () => {
    expectError(await reader.call('POST', '/feeds', {url: `${origin.url}/slow?ms=3000`}), 502, 'feed_unreachable', /timed out/);
  });

  it('a redirect loop is 502 feed_unreachable', async () => {
    expectError(await reader.call('POST', '/feeds', {url: `${origin.url}/loop/a`}), 502, 'feed_unreachable', /redirect/i);
  });

  it('10 MB of garbage is no feed (422); 20 MB is over the body cap (502)', async () => {
    expectError(await reader.call('POST', '/feeds', {url: `${origin.url}/garbage?mb=10`}), 422, 'not_a_feed');
    expectError(await reader.call('POST', '/feeds', {url: `${origin.url}/garbage-chunked?mb=20`}), 502, 'feed_unreachable');
  });

  it('an XML entity bomb is read without expanding it', async () => {
    const before = process.memoryUsage().rss;
    const answer = await reader.call('POST', '/feeds', {url: `${origin.url}/bomb.xml`});
    expect([201, 422]).toContain(answer.status);
    if (answer.status === 201) expect(answer.body.title.length).toBeLessThan(1000);
    // Expanded, the bomb is ~3 GB of "lol".
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
  });

  it('a feed of 10,000 items is stored whole, and its refresh duplicates nothing', async () => {
    const answer = await reader.call('POST', '/feeds', {url: `${origin.url}/big.xml`});
    expect(answer).toMatchObject({status: 201, body: {unreadCount: 10_000}});
    expect((await reader.call('POST', `/feeds/${answer.body.id}/refresh`)).body).toEqual({newArticles: 0});
    // Even when the origin's validators are forgotten and the whole body comes again.
    await reader.service.store.db('feeds').where('id', answer.body.id).update({etag: null, last_modified: null});
    expect((await reader.call('POST', `/feeds/${answer.body.id}/refresh`)).body).toEqual({newArticles: 0});
    expect((await reader.call('GET', '/feeds')).body.find((feed: {id: number}) => feed.id === answer.body.id).unreadCount).toBe(10_000);
  });
});

describe('article queries', () => {
  it.each([
    ['before without before_id', `before=${encodeURIComponent('2025-01-01T00:00:00.000Z')}`, /both/],
    ['before_id without before', 'before_id=5', /both/],
    ['before that is no time', 'before=yesterday&before_id=5', /ISO 8601/],
    ['before_id that is no number', `before=${encodeURIComponent('2025-01-01T00:00:00Z')}&before_id=abc`, /before_id/],
    ['a negative before_id', `before=${encodeURIComponent('2025-01-01T00:00:00Z')}&before_id=-3`, /before_id/],
    ['limit 0', 'limit=0', /limit/],
    ['limit over 200', 'limit=201', /limit/],
    ['an unknown parameter', 'feedId=3', /querystring has no field "feedId"/],
  ])('%s is 400 invalid_argument', async (_name, query, message) => {
    expectError(await reader.call('GET', `/articles?${query}`), 400, 'invalid_argument', message);
  });

  it('an unknown feed or list filter is 404', async () => {
    expectError(await reader.call('GET', '/articles?feed_id=999999'), 404, 'not_found');
    expectError(await reader.call('GET', '/articles?list_id=999999'), 404, 'not_found');
    expectError(await reader.call('GET', '/categories?feed_id=999999'), 404, 'not_found');
  });

  it('the default page is 50 and the maximum 200', async () => {
    expect((await reader.call('GET', '/articles')).body.articles).toHaveLength(50);
    expect((await reader.call('GET', '/articles?limit=200')).body.articles).toHaveLength(200);
  });
});

describe('snooze times', () => {
  it.each([
    ['in the past', '2001-01-01T00:00:00Z', /past/],
    ['unparseable', 'next tuesday', /ISO 8601/],
    ['without a time zone', '2099-01-01T09:00:00', /ISO 8601/],
    ['an impossible date', '2099-13-45T09:00:00Z', /ISO 8601/],
  ])('until %s is 400 invalid_argument', async (_name, until, message) => {
    expectError(await reader.call('POST', `/articles/${articleId}/snooze`, {until}), 400, 'invalid_argument', message);
  });

  it('until of a wrong type is 400 invalid_body', async () => {
    expectError(await reader.call('POST', `/articles/${articleId}/snooze`, {until: 1_900_000_000_000}), 400, 'invalid_body');
  });
});

describe('identifiers and routes', () => {
  it('unknown ids are 404 not_found', async () => {
    expectError(await reader.call('GET', '/articles/999999'), 404, 'not_found');
    expectError(await reader.call('POST', '/articles/999999/read', {read: true}), 404, 'not_found');
    expectError(await reader.call('DELETE', '/feeds/999999'), 404, 'not_found');
    expectError(await reader.call('DELETE', '/lists/999999'), 404, 'not_found');
    expectError(await reader.call('POST', '/lists/999999/items', {articleId}), 404, 'not_found');
  });

  it('an id that is no positive integer is 400 invalid_argument', async () => {
    expectError(await reader.call('GET', '/articles/abc'), 400, 'invalid_argument');
    expectError(await reader.call('POST', '/feeds/0/refresh'), 400, 'invalid_argument');
    expectError(await reader.call('GET', '/articles/99999999999999999999'), 400, 'invalid_argument');
  });

  it('an unknown route is 404 not_found', async () => {
    expectError(await reader.call('GET', '/nothing-here'), 404, 'not_found', /GET \/api\/v1\/nothing-here/);
    expectError(await reader.call('GET', '/lists/abc.json'), 404, 'not_found');
  });

  it('a private list has no RSS address, and a made-up token is 404', async () => {
    await reader.call('POST', '/lists', {title: 'Private', visibility: 'private'});
    expectError(await reader.call('GET', '/lists/..%2F..%2Fetc.xml'), 404, 'not_found');
    expectError(await reader.call('GET', `/lists/${'x'.repeat(24)}.xml`), 404, 'not_found');
  });

  it('removing an article that is not in the list is 404', async () => {
    const list = (await reader.call('POST', '/lists', {title: 'Empty', visibility: 'public'})).body;
    expectError(await reader.call('DELETE', `/lists/${list.id}/items/${articleId}`), 404, 'not_found');
  });

  it('POST /opml with a body that is no OPML is 400 invalid_body', async () => {
    expectError(await raw('POST', '/opml', '<html><body>hi</body></html>', 'text/xml'), 400, 'invalid_body', /OPML/);
    expectError(await raw('POST', '/opml', '{"feeds": []}'), 400, 'invalid_body');
  });

  it('POST /opml reports the outlines it could not take', async () => {
    const opml = `<?xml version="1.0"?><opml version="2.0"><head><title>t</title></head><body>
      <outline text="ftp" xmlUrl="ftp://example.com/feed.xml"/><outline text="ok" xmlUrl="${origin.url}/gen/imported.xml"/></body></opml>`;
    const answer = await raw('POST', '/opml', opml, 'text/xml');
    expect(answer.body).toEqual({added: 1, skipped: 0, failed: [{url: 'ftp://example.com/feed.xml', error: expect.stringContaining('http')}]});
  });
});

describe('unexpected failures', () => {
  it('a bug is 500 internal with a generic message, never the error text or a stack', async () => {
    const broken = new Proxy({} as ReaderService, {
      get: () => async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'secret_column')");
      },
    });
    const app = buildReaderApp({service: broken});
    try {
      const response = await app.inject({method: 'GET', url: '/api/v1/feeds'});
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({error: {code: 'internal', message: expect.any(String)}});
      expect(response.body).not.toContain('secret_column');
    } finally {
      await app.close();
    }
  });
});
