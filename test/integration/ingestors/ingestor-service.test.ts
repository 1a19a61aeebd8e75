import {mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {makePosts, startSocialNetwork, type SocialNetwork} from '../../../fixtures/social/stand-in.js';
import {WorkbenchError} from '../../../source/core/errors.js';
import {createReaderService, type LocalReaderService} from '../../../source/feeds/service/index.js';
import {saveDigest} from '../../../source/feeds/store/index.js';
import type {JudgeOutcome, RelevanceJudge} from '../../../source/feeds/ingestors/types.js';
import {testDatabases} from '../../helpers/test-databases.js';

const databases = await testDatabases();

/** A clock the test moves. */
function clock(start: string) {
  let now = Date.parse(start);
  return {now: () => new Date(now), advance: (ms: number) => (now += ms), set: (iso: string) => (now = Date.parse(iso))};
}

for (const database of databases) {
  describe.skipIf(database.unavailable !== null)(`ingestors on ${database.kind}`, () => {
    let created: {connection: string; drop(): Promise<void>};
    let dir: string;
    let network: SocialNetwork;
    let reader: LocalReaderService;
    const time = clock('2026-11-24T10:30:00Z');
    let judge: RelevanceJudge = {judge: async () => ({judgements: new Map(), calls: 0, unjudged: 0, problem: null}) as JudgeOutcome};

    beforeAll(async () => {
      created = await database.create();
      dir = mkdtempSync(join(tmpdir(), 'wb-ingest-'));
      network = await startSocialNetwork({network: 'mastodon', posts: []});
      reader = await createReaderService({
        connection: created.connection,
        deps: {now: time.now},
        ingestors: {keyFile: join(dir, 'secrets', 'reader.key'), openJudge: async () => judge},
      });
    });
    afterAll(async () => {
      await reader?.close();
      await network?.close();
      await created?.drop();
      rmSync(dir, {recursive: true, force: true});
    });
    afterEach(() => {
      network.fault(null);
    });

    const posts = (n: number, start = '2026-11-24T10:00:00Z') =>
      makePosts(n, {authors: ['alice', 'bob'], start}).map((post) => ({...post, tags: ['rust'], boostedBy: undefined, replyTo: undefined, link: undefined}));

    it('creates an ingestor with its own feed; the credential is sealed and never shown', async () => {
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust', accessToken: 'tok-secret-123456'}, fetchIntervalMin: 10});
      expect(made).toMatchObject({kind: 'kind_1', network: 'mastodon', status: 'pending', digestMode: 'realtime', filterThreshold: 0.25, llmEnabled: false, pendingDigestCount: 0});
      expect(made.config).toEqual({instance: network.url, hashtag: 'rust', accessToken: '[redacted]'});
      expect(JSON.stringify(await reader.listIngestors())).not.toContain('tok-secret-123456');
      const feed = await reader.getFeed(made.feedId);
      expect(feed.title).toMatch(/Mastodon #rust/);
      expect(statSync(join(dir, 'secrets', 'reader.key')).mode & 0o777).toBe(0o600);
      if (database.kind === 'sqlite') expect(readFileSync(created.connection).includes('tok-secret-123456')).toBe(false);
      // Its feed is no URL another reader could fetch: an OPML export leaves it out.
      expect(await reader.exportOpml()).not.toContain('ingestor:');
      await expect(reader.unsubscribe(made.feedId)).rejects.toThrow(/belongs to ingestor .*remove it with DELETE \/api\/v1\/ingestors/);
      await reader.deleteIngestor(made.id);
      await expect(reader.getFeed(made.feedId)).rejects.toThrow(/no feed/);
    });

    it('stores each kept status once, updates it when edited, removes it when deleted', async () => {
      network.setPosts(posts(30));
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, filterThreshold: 0});
      const first = await reader.runIngestor(made.id);
      expect(first).toMatchObject({fetched: 30, kept: 30, added: 30});
      expect((await reader.getFeed(made.feedId)).unreadCount).toBe(30);
      // The scheduler sees nothing due until the interval passes; a refresh of the feed runs a cycle anyway.
      expect(await reader.dueIngestors(time.now(), 10)).not.toContain(made.id);
      expect(await reader.refresh(made.feedId)).toEqual({newArticles: 0});

      network.edit(30, 'Post 30 was edited with new words');
      network.remove(29);
      const second = await reader.runIngestor(made.id, {force: true});
      expect(second).toMatchObject({added: 0, updated: 1, deleted: 1});
      const page = await reader.listArticles({feed_id: made.feedId, limit: 100});
      expect(page.articles).toHaveLength(29);
      expect(page.articles.find((article) => article.title.startsWith('Post 30 was edited with new words'))).toBeDefined();
      expect((await reader.getFeed(made.feedId)).unreadCount).toBe(29);
      const ingestor = await reader.getIngestor(made.id);
      expect(ingestor.status).toBe('ok');
      await reader.deleteIngestor(made.id);
    });

    it('a dropped status is kept later when it scores above the threshold; duplicates in one fetch count once', async () => {
      const list = posts(4);
      list.push({...list[0]!});
      network.setPosts(list);
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust', scoring: {keywords: {hidden: -3, boosted: 6}}}});
      network.edit(4, 'Post 4 hidden for now');
      const first = await reader.runIngestor(made.id);
      expect(first.fetched).toBe(5);
      expect(first.kept + first.dropped).toBe(4);
      expect(first.dropped).toBe(1);
      network.edit(4, 'Post 4 boosted now');
      const second = await reader.runIngestor(made.id, {force: true});
      expect(second.added).toBe(1);
      expect((await reader.listArticles({feed_id: made.feedId})).articles).toHaveLength(4);
      await reader.deleteIngestor(made.id);
    });

    it('hourly digests gather pending statuses into one article at the boundary; a crash before commit loses nothing', async () => {
      time.set('2026-11-24T10:30:00Z');
      network.setPosts(posts(12, '2026-11-24T10:29:00Z'));
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, digestMode: 'hourly', filterThreshold: 0});
      const first = await reader.runIngestor(made.id);
      expect(first).toMatchObject({added: 12, digests: 0});
      const waiting = await reader.getIngestor(made.id);
      expect(waiting.pendingDigestCount).toBe(12);
      expect(waiting.nextDigestAt).toBe('2026-11-24T11:00:00.000Z');
      expect((await reader.listArticles({feed_id: made.feedId})).articles).toHaveLength(0);

      // A crash between gathering and writing: the transaction never commits.
      const pendingKeys = (await reader.store.db('ingestor_statuses').select('status_key').where({ingestor_id: made.id, fate: 'pending'})) as {status_key: string}[];
      await expect(
        saveDigest(
          reader.store.db,
          {
            ingestorId: made.id,
            feedId: made.feedId,
            nowMs: time.now().getTime(),
            keys: pendingKeys.map((row) => row.status_key),
            item: {guid: 'digest:x', title: 'x', categories: []},
            nextDigestAt: 0,
          },
          () => {
            throw new Error('power cut');
          },
        ),
      ).rejects.toThrow('power cut');
      expect((await reader.getIngestor(made.id)).pendingDigestCount).toBe(12);
      expect((await reader.listArticles({feed_id: made.feedId})).articles).toHaveLength(0);

      time.set('2026-11-24T11:00:05Z');
      expect(await reader.dueIngestors(time.now(), 10)).toContain(made.id);
      const boundary = await reader.runIngestor(made.id);
      expect(boundary.digests).toBe(1);
      const articles = (await reader.listArticles({feed_id: made.feedId})).articles;
      expect(articles).toHaveLength(1);
      expect(articles[0]!.title).toMatch(/digest, 24 Nov 2026 10:00–11:00 UTC \(12 posts\)$/);
      const full = await reader.getArticle(articles[0]!.id);
      expect(full.content).toContain('@alice');
      expect((await reader.getIngestor(made.id)).pendingDigestCount).toBe(0);
      // Nothing twice: the next run writes no digest and re-gathers nothing.
      const again = await reader.runIngestor(made.id, {force: true});
      expect(again).toMatchObject({added: 0, digests: 0});
      await reader.deleteIngestor(made.id);
    });

    it('401, 429 with Retry-After, 500 and garbage: a status that says why, and the next try pushed back', async () => {
      network.setPosts(posts(3));
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust', accessToken: 'tok-never-shown-99'}, fetchIntervalMin: 5});
      network.fault({status: 401});
      await expect(reader.runIngestor(made.id)).rejects.toThrow(/accessToken/);
      let state = await reader.getIngestor(made.id);
      expect(state.status).toBe('error');
      expect(state.statusMessage).toMatch(/refused the request \(401\): check the config's accessToken/);
      expect(JSON.stringify(state)).not.toContain('tok-never-shown-99');

      network.fault({status: 429, retryAfter: 3600});
      await expect(reader.runIngestor(made.id, {force: true})).rejects.toThrow(/rate limited/);
      state = await reader.getIngestor(made.id);
      expect(state.status).toBe('rate_limited');
      expect(Date.parse(state.nextFetchAt!) - time.now().getTime()).toBe(3_600_000);

      network.fault({status: 500});
      await expect(reader.runIngestor(made.id, {force: true})).rejects.toThrow(/answered 500/);
      network.fault({status: 200, body: 'garbage{'});
      await expect(reader.runIngestor(made.id, {force: true})).rejects.toThrow(/not JSON/);
      state = await reader.getIngestor(made.id);
      expect(state.status).toBe('error');
      // Backoff: the interval doubled for each failure in a row.
      expect(Date.parse(state.nextFetchAt!) - time.now().getTime()).toBeGreaterThan(5 * 60_000 * 4);
      network.fault(null);
      await reader.runIngestor(made.id, {force: true});
      expect((await reader.getIngestor(made.id)).status).toBe('ok');
      await reader.deleteIngestor(made.id);
    });

    it('with llmEnabled and the model down, statuses still flow and the status says why', async () => {
      network.setPosts(posts(5));
      judge = {judge: async (statuses) => ({judgements: new Map(), calls: 1, unjudged: statuses.length, problem: 'the model failed: model endpoint 127.0.0.1:9 is not reachable'})};
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, llmEnabled: true, filterThreshold: 0});
      const summary = await reader.runIngestor(made.id);
      expect(summary.added).toBe(5);
      expect(summary.llm.state).toBe('partial');
      const state = await reader.getIngestor(made.id);
      expect(state.status).toBe('degraded');
      expect(state.statusMessage).toMatch(/scored without the model: the model failed/);
      await reader.deleteIngestor(made.id);
    });

    it('refuses bad definitions with the field named', async () => {
      const bad = async (input: unknown) => {
        const error = await reader.createIngestor(input as never).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(WorkbenchError);
        return (error as WorkbenchError).message;
      };
      expect(await bad({kind: 'kind_9', config: {}})).toMatch(/kind must be kind_1 \(Mastodon\), kind_2 \(Bluesky\) or kind_3 \(Reddit\)/);
      expect(await bad({kind: 'kind_1', config: {hashtag: 'rust'}})).toMatch(/config\.instance is required/);
      expect(await bad({kind: 'kind_1', config: 'rust'})).toMatch(/config must be an object/);
      expect(await bad({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, digestMode: 'weekly'})).toMatch(/digestMode must be realtime, hourly or daily/);
      expect(await bad({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, filterThreshold: 1.5})).toMatch(/filterThreshold must be a number 0–1/);
      expect(await bad({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, fetchIntervalMin: 0})).toMatch(/fetchIntervalMin/);
      expect(await bad({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust', maxStatuses: 5000}})).toMatch(/maxStatuses/);
      expect(await bad({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust', scoring: {keywords: {x: 'y'}}}})).toMatch(/config\.scoring\.keywords\.x/);
    });

    it('a PATCH keeps a credential sent back as [redacted]; test runs a stored ingestor with its own credential', async () => {
      network.setPosts(posts(6));
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, list: '7', accessToken: 'tok-keep-me-42'}});
      const changed = await reader.updateIngestor(made.id, {config: made.config, filterThreshold: 0.9});
      expect(changed.filterThreshold).toBe(0.9);
      const tested = await reader.testIngestor({id: made.id});
      expect(tested.fetched).toBe(6);
      expect(tested.kept.length + tested.dropped.length).toBe(6);
      expect(tested.dropped[0]!.reasons.length).toBeGreaterThan(0);
      expect(network.requests.at(-1)!.authorization).toBe('Bearer tok-keep-me-42');
      expect((await reader.listArticles({feed_id: made.feedId})).articles).toHaveLength(0);
      await reader.deleteIngestor(made.id);
    });
  });
}
