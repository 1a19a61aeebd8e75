import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {
  deleteFeedRow,
  findFullArticle,
  findIngestorRow,
  insertFeedRow,
  insertIngestorRow,
  openStore,
  saveCycle,
  savePoll,
  type LedgerWrite,
  type Store,
} from '../../../../source/feeds/store/index.js';
import type {ParsedItem} from '../../../../source/feeds/types.js';
import {fakeItems, keyed} from './fake-items.js';
import {testDatabases} from '../../../helpers/test-databases.js';

const databases = await testDatabases();
const NOW = Date.UTC(2026, 5, 1, 12);
const TWO_GB = 2_147_483_648 + 1_000;

for (const database of databases) {
  describe.skipIf(database.unavailable !== null)(`enclosures in the reader store on ${database.kind}`, () => {
    let created: {connection: string; drop(): Promise<void>};
    let store: Store;
    beforeAll(async () => {
      created = await database.create();
      store = await openStore(created.connection);
    });
    afterAll(async () => {
      await store?.close();
      await created?.drop();
    });

    const articleIdOf = async (feedId: number, key: string) =>
      Number(((await store.db('articles').select('id').where({feed_id: feedId, item_key: key}).first()) as {id: number}).id);

    it('keeps several enclosures in order, a 2 GB length and a duration, and drops them with the article', async () => {
      const feedId = await insertFeedRow(store.db, store.dialect, {url: `https://example.com/${database.kind}/a.xml`, title: 'A', site_url: null, category: null}, NOW);
      const [first, plain] = fakeItems('pod', 2);
      const item: ParsedItem = {
        ...first!,
        enclosures: [
          {url: 'https://cdn.example/ep1.mp3', type: 'audio/mpeg', length: TWO_GB, durationSeconds: 3723},
          {url: 'https://cdn.example/ep1.ogg', type: 'audio/ogg'},
          {url: 'https://cdn.example/ep1.mp3', type: 'audio/mpeg'},
          {url: 'https://cdn.example/cover.jpg'},
        ],
      };
      await savePoll(store.db, feedId, keyed([item, plain!]), {}, NOW);
      const article = await findFullArticle(store.db, await articleIdOf(feedId, 'pod-0'));
      expect(article?.enclosures).toEqual([
        {url: 'https://cdn.example/ep1.mp3', type: 'audio/mpeg', length: TWO_GB, durationSeconds: 3723},
        {url: 'https://cdn.example/ep1.ogg', type: 'audio/ogg'},
        {url: 'https://cdn.example/cover.jpg'},
      ]);
      expect((await findFullArticle(store.db, await articleIdOf(feedId, 'pod-1')))?.enclosures).toEqual([]);
      expect(await deleteFeedRow(store.db, feedId, NOW)).toBe(true);
      expect(Number(((await store.db('enclosures').count('* as n').first()) as {n: number | string}).n)).toBe(0);
    });

    it('stores 50 of an item with 10,000 enclosures, and the article', async () => {
      const feedId = await insertFeedRow(store.db, store.dialect, {url: `https://example.com/${database.kind}/b.xml`, title: 'B', site_url: null, category: null}, NOW);
      const [base] = fakeItems('flood', 1);
      const item: ParsedItem = {...base!, enclosures: Array.from({length: 10_000}, (_, index) => ({url: `https://cdn.example/${index}.mp3`}))};
      expect(await savePoll(store.db, feedId, keyed([item]), {}, NOW)).toBe(1);
      const article = await findFullArticle(store.db, await articleIdOf(feedId, 'flood-0'));
      expect(article?.enclosures).toHaveLength(50);
      expect(article?.enclosures[49]).toEqual({url: 'https://cdn.example/49.mp3'});
    });

    it('an ingestor update replaces the article’s enclosures in its cycle’s transaction; an update without any removes them', async () => {
      const ingestorId = await insertIngestorRow(
        store.db,
        store.dialect,
        {kind: 'kind_1', config: '{}', secrets: null, fetch_interval_min: 15, digest_mode: 'realtime', filter_threshold: 0.25, llm_enabled: false},
        {title: 'Social', site_url: null, category: null},
        NOW,
      );
      const feedId = Number((await findIngestorRow(store.db, ingestorId))!.feed_id);
      const [base] = fakeItems('status', 1);
      const ledger = (article: LedgerWrite['article']): LedgerWrite => ({
        key: 'status-0',
        fate: 'kept',
        contentHash: 'h',
        author: 'alice',
        engagement: 1,
        score: 1,
        postedAt: NOW,
        payload: null,
        fingerprints: null,
        judgement: null,
        article,
      });
      const cycle = (article: LedgerWrite['article']) =>
        saveCycle(store.db, store.dialect, {
          ingestorId,
          feedId,
          nowMs: NOW,
          ledger: [ledger(article)],
          deleted: [],
          ingestor: {last_fetched_at: NOW},
          feed: {last_fetched_at: NOW},
        });
      const first = {...base!, enclosures: [{url: 'https://cdn.example/a.mp3', type: 'audio/mpeg', length: 1_000}, {url: 'https://cdn.example/b.jpg'}]};
      expect(await cycle({action: 'insert', item: first})).toMatchObject({added: 1});
      const id = await articleIdOf(feedId, 'status-0');
      expect((await findFullArticle(store.db, id))?.enclosures).toEqual(first.enclosures);

      const edited = {...base!, enclosures: [{url: 'https://cdn.example/c.mp4', type: 'video/mp4', length: TWO_GB}]};
      expect(await cycle({action: 'update', id, item: edited})).toMatchObject({updated: 1});
      expect((await findFullArticle(store.db, id))?.enclosures).toEqual([{url: 'https://cdn.example/c.mp4', type: 'video/mp4', length: TWO_GB}]);

      // What no parser made: only absolute http(s) is stored, as the URL parser writes it.
      const hostile = [{url: 'javascript:alert(1)'}, {url: '/relative.mp3'}, {url: 'data:audio/mpeg;base64,AAAA'}, {url: 'HTTPS://CDN.Example/x.mp3', type: 'audio/mpeg'}];
      expect(await cycle({action: 'update', id, item: {...base!, enclosures: hostile}})).toMatchObject({updated: 1});
      expect((await findFullArticle(store.db, id))?.enclosures).toEqual([{url: 'https://cdn.example/x.mp3', type: 'audio/mpeg'}]);

      expect(await cycle({action: 'update', id, item: {...base!, enclosures: undefined}})).toMatchObject({updated: 1});
      expect((await findFullArticle(store.db, id))?.enclosures).toEqual([]);
      expect(Number(((await store.db('enclosures').where('article_id', id).count('* as n').first()) as {n: number | string}).n)).toBe(0);
    });
  });
}
