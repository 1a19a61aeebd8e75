// Every endpoint of the reader API (spec 2, part A) through app.inject, with the real fetcher,
// parser and discovery against a local origin, on SQLite, PostgreSQL and MariaDB.
import {parseOpml, parseRssFeed} from 'feedsmith';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFeedOrigin, type FeedOrigin} from '../../../fixtures/feed-origin/server.js';
import {testDatabases} from '../../helpers/test-databases.js';
import {readerHarness, type Harness} from './reader-harness.js';

const databases = await testDatabases();

for (const database of databases) {
  describe.skipIf(database.unavailable !== null)(`reader API on ${database.kind}`, () => {
    let origin: FeedOrigin;
    let created: {connection: string; drop(): Promise<void>};
    let reader: Harness;
    /** The feed the first test subscribes to, as the API answered it. */
    let alpha: {id: number; lastSuccessAt: string; lastFetchedAt: string; nextFetchAt: string};

    beforeAll(async () => {
      origin = await startFeedOrigin();
      created = await database.create();
      reader = await readerHarness(created.connection);
    });
    afterAll(async () => {
      await reader?.close();
      await created?.drop();
      await origin?.close();
    });

    it('GET /health answers ok', async () => {
      expect(await reader.call('GET', '/health')).toMatchObject({status: 200, body: {ok: true}});
    });

    it('POST /feeds subscribes: 201 with the feed, its articles stored and counted unread', async () => {
      const answer = await reader.call('POST', '/feeds', {url: `${origin.url}/gen/alpha.xml?items=12`, category: 'Tech'});
      expect(answer.status).toBe(201);
      alpha = answer.body;
      expect(alpha).toMatchObject({
        url: `${origin.url}/gen/alpha.xml?items=12`,
        title: 'Generated feed alpha',
        siteUrl: 'https://example.com/alpha/',
        category: 'Tech',
        unreadCount: 12,
        fetchStatus: 'ok',
        lastError: null,
      });
      expect(Date.parse(alpha.lastSuccessAt)).toBeGreaterThan(0);
      // The feed's <ttl>60</ttl>: next check an hour after the fetch.
      expect(Date.parse(alpha.nextFetchAt) - Date.parse(alpha.lastFetchedAt)).toBe(3_600_000);
    });

    it('POST /feeds with a URL already subscribed is 409 conflict', async () => {
      const answer = await reader.call('POST', '/feeds', {url: `${origin.url}/gen/alpha.xml?items=12`});
      expect(answer).toMatchObject({status: 409, body: {error: {code: 'conflict'}}});
    });

    it('POST /feeds with a page linking several feeds answers 200 with the choices and subscribes to none', async () => {
      const before = (await reader.call('GET', '/feeds')).body.length;
      const answer = await reader.call('POST', '/feeds', {url: `${origin.url}/page/several.html`});
      expect(answer.status).toBe(200);
      expect(answer.body.feeds.map((feed: {url: string}) => feed.url)).toContain(`${origin.url}/page/base/posts.xml`);
      expect(answer.body.feeds.length).toBeGreaterThan(1);
      expect((await reader.call('GET', '/feeds')).body.length).toBe(before);
    });

    it('POST /feeds with a page that links no feed is 422 not_a_feed', async () => {
      const answer = await reader.call('POST', '/feeds', {url: `${origin.url}/page/none.html`});
      expect(answer).toMatchObject({status: 422, body: {error: {code: 'not_a_feed'}}});
    });

    it('POST /feeds/discover previews without subscribing', async () => {
      const answer = await reader.call('POST', '/feeds/discover', {url: `${origin.url}/site/`});
      expect(answer.status).toBe(200);
      expect(answer.body.feeds).toEqual(
        expect.arrayContaining([
          {url: `${origin.url}/site/feed.xml`, title: 'Generated feed site', format: 'rss'},
          {url: `${origin.url}/site/atom.xml`, title: 'Generated Atom site', format: 'atom'},
        ]),
      );
      expect((await reader.call('GET', '/feeds')).body.map((feed: {url: string}) => feed.url)).not.toContain(`${origin.url}/site/feed.xml`);
    });

    it('GET /feeds lists subscriptions with unread counts and fetch state', async () => {
      const answer = await reader.call('GET', '/feeds');
      expect(answer.status).toBe(200);
      expect(answer.body).toContainEqual(expect.objectContaining({id: alpha.id, unreadCount: 12, fetchStatus: 'ok'}));
    });

    it('POST /feeds/:id/refresh sends the validators back; a 304 adds nothing and keeps the articles', async () => {
      const hits = origin.hits.get('/gen/alpha.xml') ?? 0;
      const answer = await reader.call('POST', `/feeds/${alpha.id}/refresh`);
      expect(answer).toMatchObject({status: 200, body: {newArticles: 0}});
      expect(origin.hits.get('/gen/alpha.xml')).toBe(hits + 1);
      expect(origin.lastHeaders.get('/gen/alpha.xml')?.['if-none-match']).toMatch(/^"[0-9a-f]+"$/);
      const [feed] = (await reader.call('GET', '/feeds')).body.filter((item: {id: number}) => item.id === alpha.id);
      expect(feed).toMatchObject({fetchStatus: 'not_modified', unreadCount: 12});
    });

    it('a refresh of a changed feed answers the new articles; two at once share one fetch', async () => {
      const volatile = (await reader.call('POST', '/feeds', {url: `${origin.url}/gen/vol.xml?items=5&volatile=1`})).body;
      expect(volatile.unreadCount).toBe(5);
      const hits = origin.hits.get('/gen/vol.xml')!;
      const [first, second] = await Promise.all([reader.call('POST', `/feeds/${volatile.id}/refresh`), reader.call('POST', `/feeds/${volatile.id}/refresh`)]);
      expect(first).toMatchObject({status: 200, body: {newArticles: 1}});
      expect(second).toMatchObject({status: 200, body: {newArticles: 1}});
      expect(origin.hits.get('/gen/vol.xml')).toBe(hits + 1);
      expect((await reader.call('GET', `/articles?feed_id=${volatile.id}`)).body.articles).toHaveLength(6);
    });

    it('a failing refresh answers 502 feed_unreachable and records the error without losing articles', async () => {
      const feed = (await reader.call('POST', '/feeds', {url: `${origin.url}/gen/fails.xml?items=3`})).body;
      await reader.service.store
        .db('feeds')
        .where('id', feed.id)
        .update({url: `${origin.url}/status/503`});
      const answer = await reader.call('POST', `/feeds/${feed.id}/refresh`);
      expect(answer).toMatchObject({status: 502, body: {error: {code: 'feed_unreachable', message: expect.stringContaining('503')}}});
      const [after] = (await reader.call('GET', '/feeds')).body.filter((item: {id: number}) => item.id === feed.id);
      expect(after).toMatchObject({fetchStatus: 'error', lastError: expect.stringContaining('HTTP 503'), unreadCount: 3, lastSuccessAt: feed.lastSuccessAt});
      // Backoff: the interval doubles after a failure (and Retry-After of 90 s is shorter).
      expect(Date.parse(after.nextFetchAt) - Date.parse(after.lastFetchedAt)).toBe(2 * 3_600_000);
    });

    it('a permanent redirect moves the subscription to the new address', async () => {
      const feed = (await reader.call('POST', '/feeds', {url: `${origin.url}/moved`})).body;
      expect(feed.url).toBe(`${origin.url}/gen/moved.xml`);
      const temporary = (await reader.call('POST', '/feeds', {url: `${origin.url}/temporary`})).body;
      expect(temporary.url).toBe(`${origin.url}/temporary`);
    });

    it('GET /articles pages newest first with nextCursor, and filters by feed, category and unread', async () => {
      const first = await reader.call('GET', `/articles?feed_id=${alpha.id}&limit=5`);
      expect(first.status).toBe(200);
      expect(first.body.articles.map((article: {title: string}) => article.title)).toEqual([0, 1, 2, 3, 4].map((index) => `Item ${index} of alpha`));
      expect(first.body.articles[0]).toEqual({
        id: expect.any(Number),
        feedId: alpha.id,
        title: 'Item 0 of alpha',
        link: 'https://example.com/alpha/0',
        author: null,
        publishedAt: '2025-01-06T09:00:00.000Z',
        summary: expect.stringContaining('Summary of item 0 in feed alpha.'),
        categories: ['topic-0'],
        read: false,
        snoozedUntil: null,
      });
      expect(first.body.nextCursor).toEqual({before: '2025-01-06T05:00:00.000Z', before_id: first.body.articles[4].id});
      const {before, before_id} = first.body.nextCursor;
      const second = await reader.call('GET', `/articles?feed_id=${alpha.id}&limit=5&before=${encodeURIComponent(before)}&before_id=${before_id}`);
      expect(second.body.articles.map((article: {title: string}) => article.title)).toEqual([5, 6, 7, 8, 9].map((index) => `Item ${index} of alpha`));
      const last = await reader.call(
        'GET',
        `/articles?feed_id=${alpha.id}&limit=5&before=${encodeURIComponent(second.body.nextCursor.before)}&before_id=${second.body.nextCursor.before_id}`,
      );
      expect(last.body).toMatchObject({articles: [{title: 'Item 10 of alpha'}, {title: 'Item 11 of alpha'}], nextCursor: null});

      const topic = await reader.call('GET', `/articles?feed_id=${alpha.id}&category=topic-1`);
      expect(topic.body.articles.map((article: {title: string}) => article.title)).toEqual(['Item 1 of alpha', 'Item 8 of alpha']);
    });

    it('GET /articles/:id is the full record; POST read flips the read state both ways', async () => {
      const [article] = (await reader.call('GET', `/articles?feed_id=${alpha.id}&limit=1`)).body.articles;
      const full = await reader.call('GET', `/articles/${article.id}`);
      expect(full.body).toMatchObject({...article, content: null, listIds: [], snoozedUntil: null});
      expect((await reader.call('POST', `/articles/${article.id}/read`, {read: true})).body).toMatchObject({id: article.id, read: true});
      expect((await reader.call('GET', `/articles?feed_id=${alpha.id}&unread=true&limit=1`)).body.articles[0].id).not.toBe(article.id);
      expect((await reader.call('POST', `/articles/${article.id}/read`, {read: false})).body).toMatchObject({read: false});
    });

    it('POST snooze hides an article from the unread list until its time; null brings it back', async () => {
      const [article] = (await reader.call('GET', `/articles?feed_id=${alpha.id}&limit=1`)).body.articles;
      const until = new Date(Date.now() + 3_600_000).toISOString();
      const snoozed = await reader.call('POST', `/articles/${article.id}/snooze`, {until});
      expect(snoozed).toMatchObject({status: 200, body: {id: article.id, snoozedUntil: until}});
      const unread = (await reader.call('GET', `/articles?feed_id=${alpha.id}&unread=true&limit=200`)).body.articles.map((item: {id: number}) => item.id);
      expect(unread).not.toContain(article.id);
      // The listing says until when (the Feeds pane marks the row).
      expect((await reader.call('GET', `/articles?feed_id=${alpha.id}&limit=1`)).body.articles[0]).toMatchObject({id: article.id, snoozedUntil: until});
      expect((await reader.call('GET', '/feeds')).body.find((feed: {id: number}) => feed.id === alpha.id).unreadCount).toBe(11);
      expect((await reader.call('POST', `/articles/${article.id}/snooze`, {until: null})).body.snoozedUntil).toBeNull();
      expect((await reader.call('GET', `/articles?feed_id=${alpha.id}&unread=true&limit=1`)).body.articles[0].id).toBe(article.id);
    });

    it('GET /categories counts subjects, overall or for one feed', async () => {
      const scoped = await reader.call('GET', `/categories?feed_id=${alpha.id}`);
      expect(scoped.body).toEqual([
        {name: 'topic-0', count: 2},
        {name: 'topic-1', count: 2},
        {name: 'topic-2', count: 2},
        {name: 'topic-3', count: 2},
        {name: 'topic-4', count: 2},
        {name: 'topic-5', count: 1},
        {name: 'topic-6', count: 1},
      ]);
      const all = await reader.call('GET', '/categories');
      expect(all.body.find((category: {name: string}) => category.name === 'topic-0').count).toBeGreaterThan(2);
    });

    it('lists: create public and private, save and remove articles, filter articles by list, share as RSS', async () => {
      const shared = await reader.call('POST', '/lists', {title: 'Worth reading', visibility: 'public'});
      expect(shared.status).toBe(201);
      expect(shared.body).toMatchObject({title: 'Worth reading', visibility: 'public', itemCount: 0, token: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/)});
      expect(shared.body.rssUrl).toBe(`http://reader.test/api/v1/lists/${shared.body.token}.xml`);
      const secret = await reader.call('POST', '/lists', {title: 'Mine', visibility: 'private'});
      expect(secret.body).not.toHaveProperty('token');
      expect(secret.body).not.toHaveProperty('rssUrl');

      const articles = (await reader.call('GET', `/articles?feed_id=${alpha.id}&limit=3`)).body.articles;
      for (const article of articles) expect((await reader.call('POST', `/lists/${shared.body.id}/items`, {articleId: article.id})).body.itemCount).toBeGreaterThan(0);
      await reader.call('POST', `/lists/${secret.body.id}/items`, {articleId: articles[0].id});
      expect((await reader.call('GET', `/articles/${articles[0].id}`)).body.listIds).toEqual([shared.body.id, secret.body.id]);
      const inList = await reader.call('GET', `/articles?list_id=${shared.body.id}`);
      expect(inList.body.articles.map((article: {id: number}) => article.id)).toEqual(articles.map((article: {id: number}) => article.id));
      expect((await reader.call('GET', '/lists')).body).toEqual([
        expect.objectContaining({id: shared.body.id, itemCount: 3}),
        expect.objectContaining({id: secret.body.id, itemCount: 1}),
      ]);

      const rss = await reader.call('GET', `/lists/${shared.body.token}.xml`);
      expect(rss.status).toBe(200);
      expect(rss.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
      const parsed = parseRssFeed(rss.text);
      expect(parsed.title).toBe('Worth reading');
      expect(parsed.items?.map((item) => item.link).sort()).toEqual(articles.map((article: {link: string}) => article.link).sort());
      expect(parsed.items?.[0]?.guid?.value).toMatch(/^https:\/\/example\.com\/alpha\//);

      const removed = await reader.call('DELETE', `/lists/${shared.body.id}/items/${articles[0].id}`);
      expect(removed).toMatchObject({status: 200, body: {itemCount: 2}});
      expect((await reader.call('DELETE', `/lists/${secret.body.id}`)).status).toBe(204);
      expect((await reader.call('GET', `/articles/${articles[0].id}`)).body.listIds).toEqual([]);
    });

    it('GET /lists/:token.xml of an unknown token is 404', async () => {
      expect(await reader.call('GET', '/lists/AAAAAAAAAAAAAAAAAAAAAAAA.xml')).toMatchObject({status: 404, body: {error: {code: 'not_found'}}});
    });

    it('POST /feeds/:id/mark-all-read marks every article of the feed read', async () => {
      const answer = await reader.call('POST', `/feeds/${alpha.id}/mark-all-read`);
      expect(answer).toMatchObject({status: 200, body: {marked: 12}});
      expect((await reader.call('GET', '/feeds')).body.find((feed: {id: number}) => feed.id === alpha.id).unreadCount).toBe(0);
      expect((await reader.call('GET', `/articles?feed_id=${alpha.id}&unread=true`)).body).toEqual({articles: [], nextCursor: null});
    });

    it('GET /opml exports categories as folders; POST /opml imports it into another reader', async () => {
      const exported = await reader.call('GET', '/opml');
      expect(exported.status).toBe(200);
      expect(exported.headers['content-type']).toMatch(/^text\/x-opml/);
      const outlines = parseOpml(exported.text).body?.outlines ?? [];
      expect(outlines.find((outline) => outline.text === 'Tech')?.outlines?.map((outline) => outline.xmlUrl)).toEqual([`${origin.url}/gen/alpha.xml?items=12`]);

      const other = await database.create();
      const copy = await readerHarness(other.connection);
      try {
        const imported = await copy.app.inject({method: 'POST', url: '/api/v1/opml', headers: {'content-type': 'text/x-opml'}, payload: exported.text});
        const feeds = (await reader.call('GET', '/feeds')).body;
        expect(imported.json()).toEqual({added: feeds.length, skipped: 0, failed: []});
        const copied = (await copy.call('GET', '/feeds')).body;
        expect(copied.map((feed: {url: string; category: string | null}) => [feed.url, feed.category]).sort()).toEqual(
          feeds.map((feed: {url: string; category: string | null}) => [feed.url, feed.category]).sort(),
        );
        expect(copied.every((feed: {fetchStatus: string}) => feed.fetchStatus === 'pending')).toBe(true);
        const again = await copy.app.inject({method: 'POST', url: '/api/v1/opml', headers: {'content-type': 'application/xml'}, payload: exported.text});
        expect(again.json()).toEqual({added: 0, skipped: feeds.length, failed: []});
      } finally {
        await copy.close();
        await other.drop();
      }
    });

    it('DELETE /feeds/:id unsubscribes; the feed and its articles are gone', async () => {
      const [article] = (await reader.call('GET', `/articles?feed_id=${alpha.id}&limit=1`)).body.articles;
      expect((await reader.call('DELETE', `/feeds/${alpha.id}`)).status).toBe(204);
      expect((await reader.call('GET', `/articles/${article.id}`)).status).toBe(404);
      expect((await reader.call('POST', `/feeds/${alpha.id}/refresh`)).status).toBe(404);
      expect((await reader.call('DELETE', `/feeds/${alpha.id}`)).status).toBe(404);
    });
  });
}
