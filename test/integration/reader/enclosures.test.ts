// Enclosures (podcast episodes, media files) reach every face of the reader (issue 28 item 1): a
// local origin serves a podcast RSS and an Atom feed with rel="enclosure", the real reader
// subscribes (fetcher, parser, store), and REST, Google Reader JSON, the reader's Atom and a
// shared list's RSS all carry them; Atom and RSS are parsed back with our own parser. Each database.
import type {FastifyInstance} from 'fastify';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFeedOrigin, type FeedOrigin} from '../../../fixtures/feed-origin/server.js';
import {buildReaderApp} from '../../../servers/reader/index.js';
import {setApiPassword} from '../../../source/feeds/greader/auth.js';
import {createGreader} from '../../../source/feeds/greader/greader-service.js';
import {parseFeed} from '../../../source/feeds/parser/index.js';
import {createReaderService, type LocalReaderService} from '../../../source/feeds/service/index.js';
import type {Enclosure} from '../../../source/feeds/types.js';
import {testDatabases} from '../../helpers/test-databases.js';
import {wellFormedXml} from '../../helpers/well-formed-xml.js';

const databases = await testDatabases();
let origin: FeedOrigin;
beforeAll(async () => {
  origin = await startFeedOrigin();
});
afterAll(async () => {
  await origin?.close();
});

// 2,000 GiB-ish: past 2^31 and 2^32, as a JSON number everywhere.
const TWO_GB = 2_147_483_648_000;
const EP2: Enclosure[] = [{url: 'https://cdn.podcast.example/ep2.mp4?size=big&q=1', type: 'video/mp4', length: TWO_GB, durationSeconds: 7200}];
const EP1: Enclosure[] = [
  {url: 'https://cdn.podcast.example/ep1.mp3', type: 'audio/mpeg', length: 12_216_320},
  {url: 'https://cdn.podcast.example/ep1.ogg', type: 'audio/ogg', length: 9_000_000, durationSeconds: 3723},
];
const ATOM_1: Enclosure[] = [
  {url: 'https://cdn.atom-cast.example/1.m4a', type: 'audio/mp4', length: 5000},
  {url: 'https://cdn.atom-cast.example/1-cover.jpg', type: 'image/jpeg'},
];

/** Google Reader's shape of an enclosure: no duration. */
const asReader = (enclosures: Enclosure[]) => enclosures.map(({url, type, length}) => ({href: url, ...(type ? {type} : {}), ...(length ? {length} : {})}));
const withoutDuration = (enclosures: Enclosure[]) => enclosures.map(({url, type, length}) => ({url, ...(type ? {type} : {}), ...(length ? {length} : {})}));

interface Item {
  id: string;
  title: string;
  enclosure?: Array<{href: string; type?: string; length?: number}>;
}

for (const database of databases) {
  describe.skipIf(database.unavailable !== null)(`enclosures on every face of the reader on ${database.kind}`, () => {
    let created: {connection: string; drop(): Promise<void>};
    let service: LocalReaderService;
    let app: FastifyInstance;
    let auth = '';
    let podcast = 0;
    let atomCast = 0;
    const ids = new Map<string, number>();

    beforeAll(async () => {
      created = await database.create();
      service = await createReaderService({connection: created.connection, baseUrl: 'http://reader.test'});
      app = buildReaderApp({service, greader: createGreader({store: service.store, reader: service, nowMs: () => Date.now()})});
      await app.ready();
      await setApiPassword(service.store.db, 'reader@example.org', 'correct horse battery', Date.now());
      const login = await app.inject({
        method: 'POST',
        url: '/accounts/ClientLogin',
        headers: {'content-type': 'application/x-www-form-urlencoded'},
        payload: 'Email=reader%40example.org&Passwd=correct%20horse%20battery',
      });
      auth = /^Auth=(.+)$/m.exec(login.body)![1]!;
      const a = await service.subscribe(`${origin.url}/data/greader/podcast.xml`);
      const b = await service.subscribe(`${origin.url}/data/greader/podcast-atom.xml`);
      podcast = 'feed' in a ? a.feed.id : 0;
      atomCast = 'feed' in b ? b.feed.id : 0;
      for (const feedId of [podcast, atomCast]) for (const article of (await service.listArticles({feed_id: feedId})).articles) ids.set(article.title, article.id);
    });
    afterAll(async () => {
      await app?.close();
      await service?.close();
      await created?.drop();
    });

    const greader = (url: string) => app.inject({method: 'GET', url, headers: {authorization: `GoogleLogin auth=${auth}`}});
    const id = (title: string) => ids.get(title)!;

    it('REST: the full article carries its enclosures in feed order, a 2 GB length as a number; read and snooze answer them too', async () => {
      expect(ids.size).toBe(5);
      const ep2 = await app.inject({method: 'GET', url: `/api/v1/articles/${id('Episode 2: the long one')}`});
      expect(ep2.statusCode).toBe(200);
      expect(ep2.json().enclosures).toEqual(EP2);
      // Written as the number itself, not a string or an exponent.
      expect(ep2.body).toContain('"length":2147483648000');
      expect((await app.inject({method: 'GET', url: `/api/v1/articles/${id('Episode 1')}`})).json().enclosures).toEqual(EP1);
      expect((await app.inject({method: 'GET', url: `/api/v1/articles/${id('Atom episode')}`})).json().enclosures).toEqual(ATOM_1);
      expect((await app.inject({method: 'GET', url: `/api/v1/articles/${id('Show notes')}`})).json().enclosures).toEqual([]);

      const read = await app.inject({method: 'POST', url: `/api/v1/articles/${id('Episode 1')}/read`, payload: {read: true}});
      expect(read.statusCode).toBe(200);
      expect(read.json()).toMatchObject({read: true, enclosures: EP1});
      const until = new Date(Date.now() + 86_400_000).toISOString();
      const snoozed = await app.inject({method: 'POST', url: `/api/v1/articles/${id('Episode 2: the long one')}/snooze`, payload: {until}});
      expect(snoozed.statusCode).toBe(200);
      expect(snoozed.json()).toMatchObject({enclosures: EP2});
      await app.inject({method: 'POST', url: `/api/v1/articles/${id('Episode 2: the long one')}/snooze`, payload: {until: null}});
    });

    it('Google Reader: stream/contents and stream/items/contents send FreshRSS’s enclosure array, and no key on an item without media', async () => {
      const page = await greader(`/reader/api/0/stream/contents/feed%2F${podcast}?n=100`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('"length":2147483648000');
      const items = (page.json() as {items: Item[]}).items;
      const byTitle = new Map(items.map((item) => [item.title, item]));
      expect(byTitle.get('Episode 2: the long one')!.enclosure).toEqual(asReader(EP2));
      expect(byTitle.get('Episode 1')!.enclosure).toEqual(asReader(EP1));
      expect(byTitle.get('Show notes')).not.toHaveProperty('enclosure');

      const reading = (await greader('/reader/api/0/stream/contents/user%2F-%2Fstate%2Fcom.google%2Freading-list?n=100')).json() as {items: Item[]};
      expect(reading.items.find((item) => item.title === 'Atom episode')!.enclosure).toEqual(asReader(ATOM_1));
      expect(reading.items.find((item) => item.title === 'Atom post')).not.toHaveProperty('enclosure');

      const asked = [id('Show notes'), id('Atom episode'), id('Episode 2: the long one')];
      const contents = await greader(`/reader/api/0/stream/items/contents?${asked.map((article) => `i=${article}`).join('&')}`);
      expect(contents.statusCode).toBe(200);
      const listed = (contents.json() as {items: Item[]}).items;
      expect(listed.map((item) => item.title)).toEqual(['Show notes', 'Atom episode', 'Episode 2: the long one']);
      expect(listed.map((item) => item.enclosure)).toEqual([undefined, asReader(ATOM_1), asReader(EP2)]);
    });

    it('the reader’s Atom stream has a rel="enclosure" link per media file, escaped, that our parser reads back', async () => {
      const atom = await greader(`/reader/atom/feed%2F${podcast}?n=100`);
      expect(atom.statusCode).toBe(200);
      expect(wellFormedXml(atom.body)).toBe(true);
      expect(atom.body).toContain('<link rel="enclosure" href="https://cdn.podcast.example/ep2.mp4?size=big&amp;q=1" type="video/mp4" length="2147483648000"/>');
      const parsed = parseFeed(atom.body, 'application/atom+xml');
      const byTitle = new Map(parsed.items.map((item) => [item.title, item.enclosures]));
      expect(byTitle.get('Episode 2: the long one')).toEqual(withoutDuration(EP2));
      expect(byTitle.get('Episode 1')).toEqual(withoutDuration(EP1));
      expect(byTitle.get('Show notes') ?? []).toEqual([]);
      const other = parseFeed((await greader(`/reader/atom/feed%2F${atomCast}?n=100`)).body, 'application/atom+xml');
      expect(other.items.find((item) => item.title === 'Atom episode')!.enclosures).toEqual(ATOM_1);
    });

    it('a shared list’s RSS has one <enclosure> per item, every file as media:content when there are more, read back whole', async () => {
      const list = await app.inject({method: 'POST', url: '/api/v1/lists', payload: {title: 'Episodes', visibility: 'public'}});
      expect(list.statusCode).toBe(201);
      for (const title of ['Show notes', 'Episode 1', 'Episode 2: the long one', 'Atom episode'])
        expect((await app.inject({method: 'POST', url: `/api/v1/lists/${list.json().id}/items`, payload: {articleId: id(title)}})).statusCode).toBe(200);
      const rss = await app.inject({method: 'GET', url: `/api/v1/lists/${list.json().token}.xml`});
      expect(rss.statusCode).toBe(200);
      expect(wellFormedXml(rss.body)).toBe(true);
      const items = rss.body.split('<item>').slice(1);
      expect(items.map((item) => item.match(/<enclosure /g)?.length ?? 0)).toEqual([1, 1, 1, 0]);
      expect(rss.body).toContain('<enclosure url="https://cdn.podcast.example/ep2.mp4?size=big&amp;q=1" length="2147483648000" type="video/mp4"/>');
      const parsed = parseFeed(rss.body, 'application/rss+xml');
      const byTitle = new Map(parsed.items.map((item) => [item.title, item.enclosures ?? []]));
      expect(byTitle.get('Episode 2: the long one')).toEqual(EP2);
      expect(byTitle.get('Episode 1')).toEqual(EP1);
      expect(byTitle.get('Atom episode')).toEqual(ATOM_1);
      expect(byTitle.get('Show notes')).toEqual([]);
    });

    it('a stored enclosure with markup and a control character in it leaves the Atom stream and the list RSS well-formed', async () => {
      // Written past the store's checks, as an older or foreign writer might have left it.
      const url = 'https://cdn.example/a"b<c>&d\u0001.mp3';
      await service.store.db('enclosures').insert({article_id: id('Atom post'), position: 0, url, mime_type: 'audio/x-"<&>\u0001', length: 1, duration_seconds: null});
      const atom = await greader(`/reader/atom/feed%2F${atomCast}?n=100`);
      expect(wellFormedXml(atom.body)).toBe(true);
      expect(atom.body).toContain('<link rel="enclosure" href="https://cdn.example/a&quot;b&lt;c&gt;&amp;d.mp3" type="audio/x-&quot;&lt;&amp;&gt;" length="1"/>');
      const list = await app.inject({method: 'POST', url: '/api/v1/lists', payload: {title: 'Hostile', visibility: 'public'}});
      await app.inject({method: 'POST', url: `/api/v1/lists/${list.json().id}/items`, payload: {articleId: id('Atom post')}});
      const rss = await app.inject({method: 'GET', url: `/api/v1/lists/${list.json().token}.xml`});
      expect(rss.statusCode).toBe(200);
      expect(wellFormedXml(rss.body)).toBe(true);
      expect(parseFeed(rss.body, 'application/rss+xml').items[0]!.enclosures).toEqual([{url: 'https://cdn.example/a%22b%3Cc%3E&d.mp3', length: 1}]);
      const json = await greader(`/reader/api/0/stream/items/contents?i=${id('Atom post')}`);
      expect((json.json() as {items: Item[]}).items[0]!.enclosure).toEqual([{href: url, type: 'audio/x-"<&>\u0001', length: 1}]);
    });
  });
}
