import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {
  addListItem,
  allowsPrivate,
  updateFeedRow,
  categoryCounts,
  deleteFeedRow,
  feedsWithUnread,
  findFeedRow,
  insertFeedRow,
  insertListRow,
  markFeedRead,
  openStore,
  pageArticles,
  savePoll,
  setArticleRead,
  setArticleSnooze,
  type Store,
} from '../../../../source/feeds/store/index.js';
import type {ParsedItem} from '../../../../source/feeds/types.js';
import {storeConfig} from '../../../../source/feeds/store/open-store.js';
import {loadKnex} from '../../../../source/storage/load-knex.js';
import {readerMigrations} from '../../../../source/feeds/store/migrations.js';
import {fakeItems, keyed} from './fake-items.js';
import {testDatabases} from '../../../helpers/test-databases.js';

const databases = await testDatabases();
const NOW = Date.UTC(2026, 5, 1, 12);

for (const database of databases) {
  describe.skipIf(database.unavailable !== null)(`reader store on ${database.kind}`, () => {
    let created: {connection: string; drop(): Promise<void>};
    let store: Store;
    let feedCount = 0;

    beforeAll(async () => {
      created = await database.create();
      store = await openStore(created.connection);
    });
    afterAll(async () => {
      await store?.close();
      await created?.drop();
    });

    const newFeed = async (category: string | null = null) => {
      feedCount++;
      return insertFeedRow(store.db, store.dialect, {url: `https://example.com/${database.kind}/${feedCount}.xml`, title: `Feed ${feedCount}`, site_url: null, category}, NOW);
    };

    it('migration 002 fills the category times of articles stored before it', async () => {
      const older = await database.create();
      const config = storeConfig(older.connection);
      const db = (await loadKnex())(config.knex);
      try {
        await db.migrate.up({migrationSource: readerMigrations(config.dialect), tableName: 'reader_migrations'});
        const feedRow = {url: 'https://a.example/feed.xml', url_hash: 'h', title: 'A', created_at: NOW};
        const [feedId] = config.dialect === 'mysql' ? await db('feeds').insert(feedRow) : await db('feeds').insert(feedRow, ['id']);
        const feed = typeof feedId === 'object' ? feedId.id : feedId;
        await db('articles').insert({feed_id: feed, item_key: 'k', title: 't', sort_at: 1_700_000_000_000, categories: '["x"]', is_read: false, created_at: NOW});
        const [article] = await db('articles').select('id');
        await db('article_categories').insert({article_id: article.id, feed_id: feed, name: 'x'});
        await db.migrate.latest({migrationSource: readerMigrations(config.dialect), tableName: 'reader_migrations'});
        expect(Number((await db('article_categories').first()).sort_at)).toBe(1_700_000_000_000);
        // 005 counts the unread articles already there.
        expect(Number((await db('feeds').first()).unread_count)).toBe(1);
      } finally {
        await db.destroy();
        await older.drop();
      }
    });

    it('migrates on open; reopening the same database keeps its data and runs nothing twice', async () => {
      const id = await newFeed();
      const again = await openStore(created.connection);
      try {
        expect((await findFeedRow(again.db, id))?.title).toBe(`Feed ${feedCount}`);
        const migrations = await again.db('reader_migrations').select('name');
        expect(migrations.map((row: {name: string}) => row.name)).toEqual([
          '001_reader_tables',
          '002_category_sort_at',
          '003_feed_allow_private',
          '004_list_changed_at',
          '005_feed_unread_count',
          '006_ingestors',
          '007_reader_api_users',
          '008_article_enclosures',
        ]);
      } finally {
        await again.close();
      }
    });

    it('keeps where a feed URL came from: typed and imported feeds may reach private addresses, a discovered one may not (003)', async () => {
      const typed = await newFeed();
      feedCount++;
      const found = await insertFeedRow(
        store.db,
        store.dialect,
        {url: `https://example.com/${database.kind}/found.xml`, title: 'Found', site_url: null, category: null, allow_private: false},
        NOW,
      );
      expect(allowsPrivate((await findFeedRow(store.db, typed))!)).toBe(true);
      expect(allowsPrivate((await findFeedRow(store.db, found))!)).toBe(false);
      await updateFeedRow(store.db, typed, {allow_private: false});
      expect(allowsPrivate((await findFeedRow(store.db, typed))!)).toBe(false);
    });

    it('kept unread counts stay right through every path that changes read state (005)', async () => {
      const feedId = await newFeed();
      const other = await newFeed();
      const live = async (id: number, at = NOW) =>
        Number(
          (
            await store
              .db('articles')
              .where('feed_id', id)
              .where((unread) => unread.where('is_read', false).orWhere('is_read', 0))
              .where((snooze) => snooze.whereNull('snoozed_until').orWhere('snoozed_until', '<=', at))
              .count({n: '*'})
          )[0]!.n,
        );
      const shown = async (id: number, at = NOW) => (await feedsWithUnread(store.db, store.dialect, at, id))[0]!.unreadCount;
      const check = async (id: number, expected: number, at = NOW) => {
        expect(await shown(id, at)).toBe(expected);
        expect(await live(id, at)).toBe(expected);
        const all = (await feedsWithUnread(store.db, store.dialect, at)).find((feed) => feed.id === id)!;
        expect(all.unreadCount).toBe(expected);
      };

      expect(await savePoll(store.db, feedId, keyed(fakeItems('count', 6)), {}, NOW)).toBe(6);
      await savePoll(store.db, other, keyed(fakeItems('other', 2)), {}, NOW);
      await check(feedId, 6);
      // The same items again add nothing.
      expect(await savePoll(store.db, feedId, keyed(fakeItems('count', 6)), {}, NOW)).toBe(0);
      await check(feedId, 6);
      const [a, b, c, d] = (await pageArticles(store.db, store.dialect, {feedId, limit: 10})).articles;
      // Read twice moves the count once; unread twice moves it back once.
      await setArticleRead(store.db, store.dialect, a!.id, true);
      await setArticleRead(store.db, store.dialect, a!.id, true);
      await check(feedId, 5);
      await setArticleRead(store.db, store.dialect, a!.id, false);
      await setArticleRead(store.db, store.dialect, a!.id, false);
      await check(feedId, 6);
      // Concurrent marks of one article (a pool of connections on PostgreSQL and MariaDB) move it once.
      await Promise.all(Array.from({length: 8}, () => setArticleRead(store.db, store.dialect, b!.id, true)));
      await check(feedId, 5);
      // Snoozed: hidden until its time, counted again after it; a snoozed article read and unsnoozed stays read.
      await setArticleSnooze(store.db, c!.id, NOW + 60_000);
      await check(feedId, 4);
      await check(feedId, 5, NOW + 60_000);
      await setArticleSnooze(store.db, d!.id, NOW + 60_000);
      await setArticleRead(store.db, store.dialect, d!.id, true);
      await check(feedId, 3);
      await setArticleSnooze(store.db, d!.id, null);
      await check(feedId, 3);
      await setArticleSnooze(store.db, c!.id, null);
      await check(feedId, 4);
      // Mark all read, then a poll with new items.
      expect(await markFeedRead(store.db, store.dialect, feedId)).toBe(4);
      await check(feedId, 0);
      await savePoll(store.db, feedId, keyed(fakeItems('count-more', 3)), {}, NOW);
      await check(feedId, 3);
      await check(other, 2);
      // A missing article changes nothing.
      expect(await setArticleRead(store.db, store.dialect, 999_999_999, true)).toBe(false);
      await check(feedId, 3);
      expect(await deleteFeedRow(store.db, feedId, NOW)).toBe(true);
      expect(await feedsWithUnread(store.db, store.dialect, NOW, feedId)).toEqual([]);
      await check(other, 2);
    });

    it('a poll stores each new item once; the next poll with the same keys adds only what is new', async () => {
      const feedId = await newFeed();
      const first = fakeItems('poll', 5);
      expect(await savePoll(store.db, feedId, keyed(first), {fetch_status: 'ok', etag: '"v1"'}, NOW)).toBe(5);
      const second = [...fakeItems('poll-new', 2, Date.UTC(2025, 0, 7)), ...first];
      expect(await savePoll(store.db, feedId, keyed(second), {etag: '"v2"'}, NOW)).toBe(2);
      expect(await savePoll(store.db, feedId, keyed(second), {}, NOW)).toBe(0);
      const page = await pageArticles(store.db, store.dialect, {feedId, limit: 50});
      expect(page.articles.map((article) => article.title)).toEqual([...second.map((item) => item.title)]);
      expect((await findFeedRow(store.db, feedId))?.etag).toBe('"v2"');
      expect(page.articles[0]).toMatchObject({feedId, author: 'Ada', read: false, categories: ['topic-0'], publishedAt: second[0]!.published});
    });

    it('identity keys differing only in case are two articles (MySQL collations compare case-blind)', async () => {
      const feedId = await newFeed();
      const items: ParsedItem[] = [
        {guid: 'Post-A', title: 'upper', categories: []},
        {guid: 'post-a', title: 'lower', categories: []},
      ];
      expect(await savePoll(store.db, feedId, keyed(items), {}, NOW)).toBe(2);
      expect(await savePoll(store.db, feedId, keyed(items), {}, NOW)).toBe(0);
    });

    it('a failing poll rolls back whole: no article of it and none of its feed state', async () => {
      const feedId = await newFeed();
      await savePoll(store.db, feedId, keyed(fakeItems('before', 2)), {etag: '"before"', fetch_status: 'ok'}, NOW);
      const items = fakeItems('doomed', 300);
      // Inserted oldest first, item 50 comes 250th: it blows up while its chunk is built, after two chunks went in.
      Object.defineProperty(items[50], 'content', {
        get() {
          throw new Error('boom');
        },
      });
      await expect(savePoll(store.db, feedId, keyed(items), {etag: '"after"', fetch_status: 'error'}, NOW)).rejects.toThrow('boom');
      const page = await pageArticles(store.db, store.dialect, {feedId, limit: 200});
      expect(page.articles.map((article) => article.title)).toEqual(['before item 0', 'before item 1']);
      expect(await findFeedRow(store.db, feedId)).toMatchObject({etag: '"before"', fetch_status: 'ok'});
    });

    it('orders by publication across decades, undated items by first sight, future dates pinned to now', async () => {
      const feedId = await newFeed();
      const items: ParsedItem[] = [
        {guid: 'y1999', title: '1999', published: '1999-12-31T23:59:59Z', categories: []},
        {guid: 'y2001', title: '2001', published: '2001-09-09T01:46:41Z', categories: []}, // 1,000,000,001,000 ms: one more digit than 1999
        {guid: 'future', title: 'future', published: '2099-01-01T00:00:00Z', categories: []},
        {guid: 'undated', title: 'undated', categories: []},
        {guid: 'y2024', title: '2024', published: '2024-02-29T12:00:00+02:00', categories: []},
      ];
      await savePoll(store.db, feedId, keyed(items), {}, NOW);
      const page = await pageArticles(store.db, store.dialect, {feedId, limit: 10});
      // future and undated share sort_at = now; the undated one was listed later, so it is older.
      expect(page.articles.map((article) => article.title)).toEqual(['future', 'undated', '2024', '2001', '1999']);
      expect(page.articles.find((article) => article.title === 'future')?.publishedAt).toBe('2099-01-01T00:00:00.000Z');
    });

    it('pages by keyset: every article exactly once, newest first, while newer and older ones arrive between pages', async () => {
      const feedId = await newFeed();
      // Items 45-54 share one timestamp, so the first page ends inside a tie and the id tie-break decides.
      const items = fakeItems('page', 130).map((item, index) => (index >= 45 && index < 55 ? {...item, published: '2025-01-04T00:00:00.000Z'} : item));
      await savePoll(store.db, feedId, keyed(items), {}, NOW);
      const original = (await pageArticles(store.db, store.dialect, {feedId, limit: 200})).articles.map((article) => article.id);
      expect(original).toHaveLength(130);

      const seen: number[] = [];
      let cursor: {sortAt: number; id: number} | undefined;
      let round = 0;
      for (;;) {
        const page = await pageArticles(store.db, store.dialect, {feedId, limit: 50, cursor});
        seen.push(...page.articles.map((article) => article.id));
        if (!page.nextCursor) break;
        cursor = {sortAt: Date.parse(page.nextCursor.before), id: page.nextCursor.before_id};
        round++;
        // Between pages: newer articles (above the cursor) and older ones (below it) arrive.
        await savePoll(store.db, feedId, keyed([...fakeItems(`newer-${round}`, 3, Date.UTC(2025, 5, 1)), ...fakeItems(`older-${round}`, 2, Date.UTC(2020, 0, 1))]), {}, NOW);
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.slice(0, 130)).toEqual(original);
      // The older arrivals sort below every cursor, so they show up on the last page.
      expect(seen.length).toBe(130 + 2 * round);
    });

    it('the unread filter leaves out read articles and snoozed ones until their time', async () => {
      const feedId = await newFeed();
      await savePoll(store.db, feedId, keyed(fakeItems('unread', 4)), {}, NOW);
      const [a, b, c, d] = (await pageArticles(store.db, store.dialect, {feedId, limit: 10})).articles;
      await setArticleRead(store.db, store.dialect, a!.id, true);
      await setArticleSnooze(store.db, b!.id, NOW + 3_600_000);
      await setArticleSnooze(store.db, c!.id, NOW - 1);
      const unreadNow = await pageArticles(store.db, store.dialect, {feedId, unreadAt: NOW, limit: 10});
      expect(unreadNow.articles.map((article) => article.id)).toEqual([c!.id, d!.id]);
      const unreadLater = await pageArticles(store.db, store.dialect, {feedId, unreadAt: NOW + 3_600_000, limit: 10});
      expect(unreadLater.articles.map((article) => article.id)).toEqual([b!.id, c!.id, d!.id]);
      const [feed] = await feedsWithUnread(store.db, store.dialect, NOW, feedId);
      expect(feed?.unreadCount).toBe(2);
    });

    it('counts categories overall and per feed, and filters articles by one', async () => {
      const feedId = await newFeed();
      await savePoll(store.db, feedId, keyed(fakeItems('cat', 6, undefined, {categories: (index) => (index % 2 ? ['Go', 'Rust'] : ['Go', ' go '])})), {}, NOW);
      expect(await categoryCounts(store.db, feedId)).toEqual([
        {name: 'Go', count: 6},
        {name: 'Rust', count: 3},
        {name: 'go', count: 3},
      ]);
      const rust = await pageArticles(store.db, store.dialect, {feedId, category: 'Rust', limit: 10});
      expect(rust.articles.map((article) => article.title)).toEqual(['cat item 1', 'cat item 3', 'cat item 5']);
    });

    it('a category filter pages by keyset too, with the same order as the plain list', async () => {
      const feedId = await newFeed();
      const items = fakeItems('paged-cat', 60, undefined, {categories: (index) => (index % 3 === 0 ? ['Zig'] : ['Odin'])}).map((item, index) =>
        index < 12 ? {...item, published: '2025-01-05T00:00:00.000Z'} : item,
      );
      await savePoll(store.db, feedId, keyed(items), {}, NOW);
      const expected = (await pageArticles(store.db, store.dialect, {feedId, limit: 200})).articles
        .filter((article) => article.categories.includes('Zig'))
        .map((article) => article.id);
      const seen: number[] = [];
      let cursor: {sortAt: number; id: number} | undefined;
      do {
        const page = await pageArticles(store.db, store.dialect, {category: 'Zig', limit: 3, cursor});
        seen.push(...page.articles.map((article) => article.id));
        cursor = page.nextCursor ? {sortAt: Date.parse(page.nextCursor.before), id: page.nextCursor.before_id} : undefined;
      } while (cursor);
      expect(seen).toEqual(expected);
      expect(seen).toHaveLength(20);
    });

    it('unsubscribing deletes the feed with its articles, their categories and list entries', async () => {
      const feedId = await newFeed();
      await savePoll(store.db, feedId, keyed(fakeItems('gone', 3)), {}, NOW);
      const [article] = (await pageArticles(store.db, store.dialect, {feedId, limit: 1})).articles;
      const listId = await insertListRow(store.db, store.dialect, 'Keep', 'private', null, NOW);
      await addListItem(store.db, listId, article!.id, NOW);
      expect(await deleteFeedRow(store.db, feedId, NOW)).toBe(true);
      expect(await store.db('articles').where('feed_id', feedId).count({n: '*'})).toEqual([{n: expect.anything()}]);
      expect(Number((await store.db('articles').where('feed_id', feedId).count({n: '*'}))[0]!.n)).toBe(0);
      expect(Number((await store.db('article_categories').where('feed_id', feedId).count({n: '*'}))[0]!.n)).toBe(0);
      expect(Number((await store.db('list_items').where('list_id', listId).count({n: '*'}))[0]!.n)).toBe(0);
      expect(await store.db('lists').where('id', listId).first()).toBeTruthy();
    });
  });
}
