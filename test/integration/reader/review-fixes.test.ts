// Defects a black-box review of the reader API found, each pinned by a test. SQLite; the real
// fetcher, parser and discovery on a local origin.
import {parseOpml} from 'feedsmith';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFeedOrigin, type FeedOrigin} from '../../../fixtures/feed-origin/server.js';
import {buildReaderApp} from '../../../servers/reader/index.js';
import {readerHarness, type Answer, type Harness} from './reader-harness.js';

let origin: FeedOrigin;
let dir: string;
let reader: Harness;
let feedId: number;
let articleId: number;

beforeAll(async () => {
  origin = await startFeedOrigin();
  dir = mkdtempSync(join(tmpdir(), 'wb-reader-review-'));
  reader = await readerHarness(join(dir, 'reader.sqlite'));
  feedId = (await reader.call('POST', '/feeds', {url: `${origin.url}/gen/review.xml?items=4`})).body.id;
  articleId = (await reader.call('GET', '/articles?limit=1')).body.articles[0].id;
});
afterAll(async () => {
  await reader?.close();
  await origin?.close();
  rmSync(dir, {recursive: true, force: true});
});

function expectError(answer: Answer, status: number, code: string, message?: RegExp) {
  expect({status: answer.status, code: answer.body?.error?.code}).toEqual({status, code});
  if (message) expect(answer.body.error.message).toMatch(message);
}

async function raw(method: 'POST' | 'GET' | 'DELETE', url: string, payload: string, contentType = 'application/json'): Promise<Answer> {
  const response = await reader.app.inject({method, url: `/api/v1${url}`, headers: {'content-type': contentType}, payload});
  return {status: response.statusCode, body: response.json(), text: response.body, headers: response.headers};
}

describe('impossible calendar dates', () => {
  it.each(['2030-02-30T00:00:00Z', '2031-02-29T00:00:00Z', '2030-04-31T12:00:00+02:00', '2030-01-01T24:00:00Z', '2030-01-01T10:60:00Z', '2030-01-01T10:00:61Z'])(
    'snooze until %s is 400 invalid_argument, not shifted',
    async (until) => {
      expectError(await reader.call('POST', `/articles/${articleId}/snooze`, {until}), 400, 'invalid_argument', /ISO 8601/);
    },
  );

  it('a real leap day is taken', async () => {
    const answer = await reader.call('POST', `/articles/${articleId}/snooze`, {until: '2032-02-29T00:00:00Z'});
    expect(answer.status).toBe(200);
    expect(answer.body.snoozedUntil).toBe('2032-02-29T00:00:00.000Z');
    await reader.call('POST', `/articles/${articleId}/snooze`, {until: null});
  });

  it('a cursor on an impossible date is 400 invalid_argument', async () => {
    expectError(await reader.call('GET', `/articles?before=${encodeURIComponent('2025-02-30T09:00:00.000Z')}&before_id=5`), 400, 'invalid_argument', /ISO 8601/);
    expect((await reader.call('GET', `/articles?before=${encodeURIComponent('2024-02-29T09:00:00.000Z')}&before_id=5`)).status).toBe(200);
  });
});

describe('content types', () => {
  it.each(['/feeds', '/feeds/discover', '/lists', `/lists/1/items`])('POST %s with text/plain JSON is 415 naming application/json', async (url) => {
    expectError(await raw('POST', url, '{"url": "http://example.com/feed.xml"}', 'text/plain'), 415, 'invalid_body', /application\/json/);
  });

  it('read and snooze refuse text/plain too', async () => {
    expectError(await raw('POST', `/articles/${articleId}/read`, '{"read": true}', 'text/plain'), 415, 'invalid_body', /application\/json/);
    expectError(await raw('POST', `/articles/${articleId}/snooze`, '{"until": null}', 'text/plain'), 415, 'invalid_body', /application\/json/);
  });
});

describe('unknown query parameters', () => {
  it.each([
    ['GET', '/health?x=1'],
    ['GET', '/feeds?x=1'],
    ['GET', '/lists?x=1'],
    ['GET', '/opml?x=1'],
    ['GET', '/articles/1?x=1'],
    ['POST', '/feeds?x=1'],
    ['POST', '/feeds/1/refresh?x=1'],
    ['DELETE', '/lists/999?x=1'],
  ] as const)('%s %s is 400 invalid_argument', async (method, url) => {
    expectError(
      await reader.call(method, url, method === 'POST' && url.startsWith('/feeds?') ? {url: `${origin.url}/gen/q.xml`} : undefined),
      400,
      'invalid_argument',
      /querystring/,
    );
  });

  it('every route of the app declares a query schema that refuses unknown parameters', async () => {
    const app = buildReaderApp({service: reader.service});
    app.register(async (scope) => {
      scope.get('/forgot-query', async () => ({}));
    });
    await expect(app.ready()).rejects.toThrow(/GET \/forgot-query must declare a querystring schema/);
  });
});

describe('routes that take no body', () => {
  it.each([
    ['POST', `/feeds/FEED/refresh`, '{"x":1}', 'application/json'],
    ['POST', `/feeds/FEED/refresh`, 'hello', 'text/plain'],
    ['POST', `/feeds/FEED/mark-all-read`, '[1]', 'application/json'],
    ['DELETE', '/lists/2', '{"a":1}', 'application/json'],
    ['DELETE', '/feeds/999999', '"x"', 'application/json'],
  ] as const)('%s %s with %s is 400 invalid_body', async (method, url, payload, type) => {
    expectError(await raw(method, url.replace('FEED', String(feedId)), payload, type), 400, 'invalid_body', /takes no body/);
  });

  it('nothing, an empty JSON body or {} is no body', async () => {
    expect((await raw('POST', `/feeds/${feedId}/mark-all-read`, '{}')).status).toBe(200);
    expect((await raw('POST', `/feeds/${feedId}/mark-all-read`, '')).status).toBe(200);
    expect((await reader.call('POST', `/feeds/${feedId}/mark-all-read`)).status).toBe(200);
  });
});

describe('one code and one message per mistake', () => {
  it.each(['', '   ', '\t\n'])('a list title %j is 400 invalid_body "must not be blank"', async (title) => {
    expectError(await reader.call('POST', '/lists', {title, visibility: 'private'}), 400, 'invalid_body', /title must not be blank/);
  });

  it.each(['%20', '', 'abc', '0', '201', '2.5'])('limit=%s says limit must be a whole number 1–200', async (limit) => {
    expectError(await reader.call('GET', `/articles?limit=${limit}`), 400, 'invalid_argument', /^limit must be a whole number 1–200/);
  });

  it('a body with a __proto__ or constructor.prototype key says such keys are refused', async () => {
    expectError(await raw('POST', '/lists', '{"title": "x", "visibility": "private", "__proto__": {"admin": true}}'), 400, 'invalid_body', /__proto__.*refused/);
    expectError(await raw('POST', '/lists', '{"title": "x", "visibility": "private", "constructor": {"prototype": {"admin": true}}}'), 400, 'invalid_body', /refused/);
    expectError(await raw('POST', '/lists', '{"title": "x",'), 400, 'invalid_body', /not valid JSON/);
  });
});

describe('nested OPML folders', () => {
  it('import keeps the folder path as the category; export writes the folders back nested; a re-import gives the same', async () => {
    const opml = `<?xml version="1.0"?><opml version="2.0"><head><title>t</title></head><body>
      <outline text="Tech">
        <outline text="Top" xmlUrl="${origin.url}/gen/top.xml"/>
        <outline text="Nested"><outline text="Deep" xmlUrl="${origin.url}/gen/deep.xml"/></outline>
      </outline>
      <outline text="Loose" xmlUrl="${origin.url}/gen/loose.xml" category="/Misc/Later,/Other"/></body></opml>`;
    const imported = await raw('POST', '/opml', opml, 'text/xml');
    expect(imported.body).toEqual({added: 3, skipped: 0, failed: []});
    const categoryOf = async (harness: Harness, url: string) =>
      ((await harness.call('GET', '/feeds')).body as {url: string; category: string | null}[]).find((feed) => feed.url === url)?.category;
    expect(await categoryOf(reader, `${origin.url}/gen/deep.xml`)).toBe('Tech/Nested');
    expect(await categoryOf(reader, `${origin.url}/gen/top.xml`)).toBe('Tech');
    expect(await categoryOf(reader, `${origin.url}/gen/loose.xml`)).toBe('Misc/Later');

    const exported = (await reader.call('GET', '/opml')).text;
    const tech = parseOpml(exported).body?.outlines?.find((outline) => outline.text === 'Tech');
    expect(tech?.outlines?.map((outline) => outline.text)).toEqual(['Nested', 'Top']);
    expect(tech?.outlines?.[0]?.outlines?.map((outline) => outline.xmlUrl)).toEqual([`${origin.url}/gen/deep.xml`]);
    expect(parseOpml(exported).body?.outlines?.some((outline) => outline.text === 'Tech/Nested')).toBe(false);

    const copyDir = mkdtempSync(join(tmpdir(), 'wb-reader-review-copy-'));
    const copy = await readerHarness(join(copyDir, 'reader.sqlite'));
    try {
      await copy.app.inject({method: 'POST', url: '/api/v1/opml', headers: {'content-type': 'text/x-opml'}, payload: exported});
      expect(await categoryOf(copy, `${origin.url}/gen/deep.xml`)).toBe('Tech/Nested');
      expect(await categoryOf(copy, `${origin.url}/gen/loose.xml`)).toBe('Misc/Later');
    } finally {
      await copy.close();
      rmSync(copyDir, {recursive: true, force: true});
    }
  });
});

describe('unread filter both ways', () => {
  it('unread=true lists unread articles, unread=false only read ones, no filter all of them', async () => {
    const all = (await reader.call('GET', `/articles?feed_id=${feedId}`)).body.articles as Array<{id: number; read: boolean}>;
    expect(all.length).toBe(4);
    expect((await reader.call('POST', `/articles/${all[0].id}/read`, {read: true})).status).toBe(200);
    expect((await reader.call('POST', `/articles/${all[2].id}/read`, {read: true})).status).toBe(200);
    for (const article of [all[1], all[3]]) expect((await reader.call('POST', `/articles/${article.id}/read`, {read: false})).status).toBe(200);
    const unread = (await reader.call('GET', `/articles?feed_id=${feedId}&unread=true`)).body.articles as Array<{id: number; read: boolean}>;
    const read = (await reader.call('GET', `/articles?feed_id=${feedId}&unread=false`)).body.articles as Array<{id: number; read: boolean}>;
    expect(read.map((article) => article.id)).toEqual([all[0].id, all[2].id]);
    expect(read.every((article) => article.read)).toBe(true);
    expect(unread.map((article) => article.id)).toEqual([all[1].id, all[3].id]);
    expect((await reader.call('GET', `/articles?feed_id=${feedId}`)).body.articles.length).toBe(4);
  });
});
