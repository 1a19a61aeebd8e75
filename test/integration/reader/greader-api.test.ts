import type {FastifyInstance} from 'fastify';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFeedOrigin, type FeedOrigin} from '../../../fixtures/feed-origin/server.js';
import {buildReaderApp} from '../../../servers/reader/index.js';
import {setApiPassword} from '../../../source/feeds/greader/auth.js';
import {createGreader} from '../../../source/feeds/greader/greader-service.js';
import {createReaderService, type LocalReaderService} from '../../../source/feeds/service/index.js';
import {testDatabases} from '../../helpers/test-databases.js';

// The Google Reader API over a real reader (store, fetcher, parser) on each database, driven
// with app.inject as a client would: ClientLogin, then `Authorization: GoogleLogin auth=…`.

const databases = await testDatabases();
let origin: FeedOrigin;
beforeAll(async () => {
  origin = await startFeedOrigin();
});
afterAll(async () => {
  await origin?.close();
});

interface Item {
  id: string;
  title: string;
  categories: string[];
  origin: {streamId: string};
}

for (const database of databases) {
  describe.skipIf(database.unavailable !== null)(`Google Reader API on ${database.kind}`, () => {
    let created: {connection: string; drop(): Promise<void>};
    let service: LocalReaderService;
    let app: FastifyInstance;
    let auth = '';
    let token = '';
    let feedA = 0;
    let feedB = 0;

    beforeAll(async () => {
      created = await database.create();
      service = await createReaderService({connection: created.connection, baseUrl: 'http://reader.test'});
      app = buildReaderApp({service, greader: createGreader({store: service.store, reader: service, nowMs: () => Date.now()})});
      await app.ready();
      await setApiPassword(service.store.db, 'reader@example.org', 'correct horse battery', Date.now());
      const a = await service.subscribe(`${origin.url}/gen/alpha.xml?items=30`, {category: 'Tech'});
      const b = await service.subscribe(`${origin.url}/gen/beta.xml?items=12`);
      feedA = 'feed' in a ? a.feed.id : 0;
      feedB = 'feed' in b ? b.feed.id : 0;
    });
    afterAll(async () => {
      await app?.close();
      await service?.close();
      await created?.drop();
    });

    const login = (email: string, password: string, prefix = '') =>
      app.inject({
        method: 'POST',
        url: `${prefix}/accounts/ClientLogin`,
        headers: {'content-type': 'application/x-www-form-urlencoded'},
        payload: new URLSearchParams({Email: email, Passwd: password}).toString(),
      });
    const get = (url: string, headers: Record<string, string> = {authorization: `GoogleLogin auth=${auth}`}) => app.inject({method: 'GET', url, headers});
    const post = (url: string, form: Array<[string, string]>, headers: Record<string, string> = {authorization: `GoogleLogin auth=${auth}`}) =>
      app.inject({method: 'POST', url, headers: {...headers, 'content-type': 'application/x-www-form-urlencoded'}, payload: new URLSearchParams(form).toString()});

    it('signs in with the API password; a wrong password and an unknown user get the same 401', async () => {
      const ok = await login('reader@example.org', 'correct horse battery');
      expect(ok.statusCode).toBe(200);
      auth = /^Auth=(.+)$/m.exec(ok.body)![1]!;
      expect(ok.body).toMatch(/^SID=.+\nLSID=.+\nAuth=.+\n$/);
      const wrong = await login('reader@example.org', 'nope');
      const unknown = await login('nobody@example.org', 'correct horse battery');
      expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
      expect(wrong.body).toBe(unknown.body);
      expect(wrong.body).toBe('Error=BadAuthentication\n');
      // The same under FreshRSS's prefix, and with the doubled slash of a base URL ending in one.
      expect((await login('reader@example.org', 'correct horse battery', '/api/greader.php')).statusCode).toBe(200);
      expect((await app.inject({method: 'GET', url: '//reader/api/0/token', headers: {authorization: `GoogleLogin auth=${auth}`}})).statusCode).toBe(200);
      token = (await get('/reader/api/0/token')).body;
      expect(token).toHaveLength(57);
      expect((await get('/reader/api/0/subscription/list', {})).statusCode).toBe(401);
      expect((await get('/reader/api/0/subscription/list', {authorization: `GoogleLogin auth=${auth}x`})).statusCode).toBe(401);
    });

    it('lists subscriptions, tags and unread counts', async () => {
      const subscriptions = (await get('/reader/api/0/subscription/list?output=json')).json() as {
        subscriptions: Array<{id: string; title: string; categories: Array<{label: string}>}>;
      };
      expect(subscriptions.subscriptions.map((sub) => sub.id).sort()).toEqual([`feed/${feedA}`, `feed/${feedB}`].sort());
      expect(subscriptions.subscriptions.find((sub) => sub.id === `feed/${feedA}`)!.categories).toEqual([{id: 'user/-/label/Tech', label: 'Tech'}]);
      const tags = (await get('/api/greader.php/reader/api/0/tag/list?output=json')).json() as {tags: Array<{id: string}>};
      expect(tags.tags.map((tag) => tag.id)).toEqual(expect.arrayContaining(['user/-/state/com.google/starred', 'user/-/label/Tech']));
      const counts = (await get('/reader/api/0/unread-count?output=json')).json() as {unreadcounts: Array<{id: string; count: number}>};
      expect(counts.unreadcounts.find((entry) => entry.id === `feed/${feedA}`)!.count).toBe(30);
      expect(counts.unreadcounts.find((entry) => entry.id === 'user/-/state/com.google/reading-list')!.count).toBe(42);
      // A folder counts the unread of its feeds, as FreshRSS and Miniflux answer.
      expect(counts.unreadcounts.find((entry) => entry.id === 'user/-/label/Tech')).toMatchObject({count: 30, newestItemTimestampUsec: expect.stringMatching(/^[1-9]\d+$/)});
    });

    it('pages a stream with continuation: every item once, none missed, newest first or oldest first', async () => {
      for (const order of ['', '&r=o']) {
        const seen: string[] = [];
        let continuation = '';
        for (let round = 0; round < 10; round++) {
          const page = (await get(`/reader/api/0/stream/contents/user%2F-%2Fstate%2Fcom.google%2Freading-list?n=7${order}${continuation ? `&c=${continuation}` : ''}`)).json() as {
            items: Item[];
            continuation?: string;
          };
          seen.push(...page.items.map((item) => item.id));
          if (!page.continuation) break;
          continuation = page.continuation;
        }
        expect(seen).toHaveLength(42);
        expect(new Set(seen).size).toBe(42);
      }
      const feed = (await get(`/reader/api/0/stream/contents/feed%2F${feedB}?n=100`)).json() as {items: Item[]};
      expect(feed.items).toHaveLength(12);
      expect(feed.items.every((item) => item.origin.streamId === `feed/${feedB}`)).toBe(true);
      const older = (await get(`/reader/api/0/stream/contents/feed%2F${feedB}?n=100&ot=${Math.floor(Date.UTC(2025, 0, 6, 3, 30) / 1000)}`)).json() as {items: Item[]};
      expect(older.items.length).toBe(12 - 6);
      const ids = (await get(`/reader/api/0/stream/items/ids?s=feed/${feedA}&n=1000&xt=user/-/state/com.google/read`)).json() as {itemRefs: Array<{id: string}>};
      expect(ids.itemRefs).toHaveLength(30);
    });

    it('edit-tag marks many items read and starred (the Starred list), and labels them (lists); the T token is required', async () => {
      const ids = ((await get(`/reader/api/0/stream/items/ids?s=feed/${feedB}&n=5`)).json() as {itemRefs: Array<{id: string}>}).itemRefs.map((ref) => ref.id);
      const missing = await post('/reader/api/0/edit-tag', [...ids.map((id): [string, string] => ['i', id]), ['a', 'user/-/state/com.google/read']]);
      expect(missing.statusCode).toBe(401);
      expect(missing.headers['x-reader-google-bad-token']).toBe('true');
      const wrongT = await post('/reader/api/0/edit-tag', [
        ['i', ids[0]!],
        ['a', 'user/-/state/com.google/read'],
        ['T', 'x'.repeat(57)],
      ]);
      expect(wrongT.statusCode).toBe(401);

      const edited = await post('/reader/api/0/edit-tag', [
        ...ids.map((id): [string, string] => ['i', id]),
        ['a', 'user/-/state/com.google/read'],
        ['a', 'user/-/state/com.google/starred'],
        ['a', 'user/-/label/Later'],
        ['T', token],
      ]);
      expect(edited.statusCode).toBe(200);
      expect(edited.body).toBe('OK');
      expect((await service.getFeed(feedB)).unreadCount).toBe(7);
      const lists = await service.listLists();
      expect(lists.find((list) => list.title === 'Starred')).toMatchObject({visibility: 'private', itemCount: 5});
      expect(lists.find((list) => list.title === 'Later')!.itemCount).toBe(5);
      const starred = (await get('/reader/api/0/stream/contents/user%2F-%2Fstate%2Fcom.google%2Fstarred?n=50')).json() as {items: Item[]};
      expect(starred.items).toHaveLength(5);
      expect(starred.items[0]!.categories).toEqual(expect.arrayContaining(['user/-/state/com.google/read', 'user/-/state/com.google/starred', 'user/-/label/Later']));
      // Long ids work as well as short ones; removing read makes them unread again.
      await post('/reader/api/0/edit-tag', [
        ['i', starred.items[0]!.id],
        ['r', 'user/-/state/com.google/read'],
        ['T', token],
      ]);
      expect((await service.getFeed(feedB)).unreadCount).toBe(8);
      // A label that is a list counts its unread items: of the five, one is unread again.
      const counts = (await get('/reader/api/0/unread-count?output=json')).json() as {unreadcounts: Array<{id: string; count: number}>};
      expect(counts.unreadcounts.find((entry) => entry.id === 'user/-/label/Later')!.count).toBe(1);
      expect(counts.unreadcounts.some((entry) => entry.id === 'user/-/label/Starred')).toBe(false);
    });

    it('takes newsboat’s own edit-tag and mark-all-as-read forms (its source, FeedHqApi)', async () => {
      const [item] = ((await get(`/reader/api/0/stream/contents/feed%2F${feedB}?n=1&xt=user%2F-%2Fstate%2Fcom.google%2Fread`)).json() as {items: Item[]}).items;
      const before = (await service.getFeed(feedB)).unreadCount;
      const form = `i=${item!.id}&a=user/-/state/com.google/read&r=user/-/state/com.google/kept-unread&ac=edit&T=${token}`;
      const read = await app.inject({
        method: 'POST',
        url: '//reader/api/0/edit-tag',
        headers: {authorization: `GoogleLogin auth=${auth}`, 'content-type': 'application/x-www-form-urlencoded'},
        payload: form,
      });
      expect(read.body).toBe('OK');
      expect((await service.getFeed(feedB)).unreadCount).toBe(before - 1);
      const unread = `i=${item!.id}&r=user/-/state/com.google/read&a=user/-/state/com.google/kept-unread&a=user/-/state/com.google/tracking-kept-unread&ac=edit&T=${token}`;
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/reader/api/0/edit-tag',
            headers: {authorization: `GoogleLogin auth=${auth}`, 'content-type': 'application/x-www-form-urlencoded'},
            payload: unread,
          })
        ).body,
      ).toBe('OK');
      expect((await service.getFeed(feedB)).unreadCount).toBe(before);
    });

    it('mark-all-as-read marks a feed up to a time', async () => {
      const answer = await post('/reader/api/0/mark-all-as-read', [
        ['s', `feed/${feedA}`],
        ['ts', String(Math.floor(Date.UTC(2025, 0, 6, 0, 30) / 1000))],
        ['T', token],
      ]);
      expect(answer.body).toBe('OK');
      expect((await service.getFeed(feedA)).unreadCount).toBe(30 - 21);
      await post('/reader/api/0/mark-all-as-read', [
        ['s', `feed/${feedA}`],
        ['T', token],
      ]);
      expect((await service.getFeed(feedA)).unreadCount).toBe(0);
    });

    it('renames and files a subscription, and the Atom view carries read state as newsboat reads it', async () => {
      expect(
        (
          await post('/reader/api/0/subscription/edit', [
            ['ac', 'edit'],
            ['s', `feed/${feedB}`],
            ['t', 'Beta renamed'],
            ['a', 'user/-/label/News'],
            ['T', token],
          ])
        ).body,
      ).toBe('OK');
      expect(await service.getFeed(feedB)).toMatchObject({title: 'Beta renamed', category: 'News'});
      const atom = await get(`/reader/atom/feed%2F${feedB}?n=3`);
      expect(atom.headers['content-type']).toMatch(/application\/atom\+xml/);
      expect(atom.body).toMatch(/<category term="user\/-\/state\/com.google\/(read|fresh)" scheme="http:\/\/www.google.com\/reader\/" label="(read|fresh)"\/>/);
      expect(atom.body.match(/<entry>/g)).toHaveLength(3);
    });

    it('a new password signs every client out', async () => {
      await setApiPassword(service.store.db, 'reader@example.org', 'another long password', Date.now());
      expect((await get('/reader/api/0/token')).statusCode).toBe(401);
      const again = await login('reader@example.org', 'another long password');
      auth = /^Auth=(.+)$/m.exec(again.body)![1]!;
      token = (await get('/reader/api/0/token')).body;
      expect((await get('/reader/api/0/user-info')).json()).toMatchObject({userName: 'reader@example.org'});
    });

    it.each([
      ['a count that is no number', '/reader/api/0/stream/contents/feed%2F1?n=abc', 400],
      ['a stream this reader does not know', '/reader/api/0/stream/contents/nonsense', 400],
      ['a continuation it never gave', '/reader/api/0/stream/contents/feed%2F1?c=AAAA', 400],
      ['an exclusion that is no state', '/reader/api/0/stream/items/ids?s=feed/1&xt=feed/2', 400],
      ['an unknown parameter', '/reader/api/0/unread-count?evil=1', 400],
      ['an item id that is not one', '/reader/api/0/stream/items/contents?i=not-an-id', 400],
    ])('refuses %s with 400, never a 500', async (_what, url, status) => {
      const answer = await get(url);
      expect(answer.statusCode).toBe(status);
      expect(answer.body).not.toMatch(/\n\s+at /);
    });

    it('refuses an edit without items, and a form that is too large', async () => {
      expect(
        (
          await post('/reader/api/0/edit-tag', [
            ['a', 'user/-/state/com.google/read'],
            ['T', token],
          ])
        ).statusCode,
      ).toBe(400);
      const huge = await post('/reader/api/0/edit-tag', [
        ['i', '1'.repeat(600_000)],
        ['T', token],
      ]);
      expect(huge.statusCode).toBe(413);
    });

    it('gives whole articles: bodies in stream/contents, items/contents and the Atom stream; titles as escaped text', async () => {
      const subscribed = await service.subscribe(`${origin.url}/data/greader/escaped-titles.xml`);
      const feed = 'feed' in subscribed ? subscribed.feed.id : 0;
      const bodies = {
        'Use <div> wisely: AT&T Q&A': '<p>The body of the <b>first</b> article.</p>',
        'First & foremost': '<p>The body of the second article.</p>',
      };
      const contents = (await get(`/reader/api/0/stream/contents/feed%2F${feed}?n=100`)).json() as {items: Array<Item & {summary: {content: string}}>};
      expect(Object.fromEntries(contents.items.map((item) => [item.title, item.summary.content]))).toEqual(bodies);
      const byId = (await get(`/reader/api/0/stream/items/contents?${contents.items.map((item) => `i=${encodeURIComponent(item.id)}`).join('&')}`)).json() as {
        items: Array<Item & {summary: {content: string}}>;
      };
      expect(Object.fromEntries(byId.items.map((item) => [item.title, item.summary.content]))).toEqual(bodies);

      const atom = (await get(`/reader/atom/feed%2F${feed}?n=100`)).body;
      expect(atom).toContain('<title type="text">Use &lt;div&gt; wisely: AT&amp;T Q&amp;A</title>');
      expect(atom).toContain('<title type="text">First &amp; foremost</title>');
      expect(atom).toContain('<content type="html">&lt;p&gt;The body of the &lt;b&gt;first&lt;/b&gt; article.&lt;/p&gt;</content>');
      expect(atom).toContain('<content type="html">&lt;p&gt;The body of the second article.&lt;/p&gt;</content>');
      expect(atom).not.toContain('type="html"></content>');
    });
  });
}
