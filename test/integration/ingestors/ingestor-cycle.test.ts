// The ingestor cycle over the store, on every database: what the service's tests leave out —
// unread counts, lists and categories through deletions, pending statuses deleted and kept
// across a restart, the digest of a boundary holding only what was gathered before it, a
// network that fails at the boundary, status keys longer than the column, the network's HTML,
// a judge that throws, and credentials echoed by an error.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {makePosts, startSocialNetwork, type SocialNetwork} from '../../../fixtures/social/stand-in.js';
import {WorkbenchError} from '../../../source/core/errors.js';
import {runIngestorCycle, testIngestorCycle} from '../../../source/feeds/ingestors/cycle/run-cycle.js';
import type {CycleDeps} from '../../../source/feeds/ingestors/cycle/deps.js';
import {networkOf} from '../../../source/feeds/ingestors/networks/index.js';
import {openModelJudge, parseScoringRules} from '../../../source/feeds/ingestors/scoring/index.js';
import {startModelEndpoint} from '../../../fixtures/model-endpoint/stand-in.js';
import type {FetchOutcome, NetworkSource, RelevanceJudge, RunnableIngestor, SocialStatus} from '../../../source/feeds/ingestors/types.js';
import {createReaderService, type LocalReaderService} from '../../../source/feeds/service/index.js';
import {authorsUsual, findIngestorRow} from '../../../source/feeds/store/index.js';
import {testDatabases} from '../../helpers/test-databases.js';

const databases = await testDatabases();

function clock(start: string) {
  let now = Date.parse(start);
  return {now: () => new Date(now), set: (iso: string) => (now = Date.parse(iso))};
}

const noJudge: RelevanceJudge = {judge: async () => ({judgements: new Map(), calls: 0, unjudged: 0, problem: null})};

/** A status as a network source hands it over. */
function status(key: string, text: string, createdAt: string, extra: Partial<SocialStatus> = {}): SocialStatus {
  return {
    key,
    url: `https://social.example/@alice/${encodeURIComponent(key.slice(-12))}`,
    author: {handle: 'alice', name: 'Alice', url: null},
    title: null,
    text,
    html: null,
    createdAt,
    editedAt: null,
    engagement: {likes: 1, reposts: 0, replies: 0},
    repostedBy: null,
    replyTo: null,
    replyToSelf: false,
    threadKey: key,
    links: [],
    tags: [],
    deleted: false,
    ...extra,
  };
}

/** A network source whose answer (or failure) the test sets. */
function scriptedSource(): NetworkSource & {answer: SocialStatus[] | Error} {
  const base = networkOf('kind_1');
  const source = {
    ...base,
    answer: [] as SocialStatus[] | Error,
    async fetch(): Promise<FetchOutcome> {
      if (source.answer instanceof Error) throw source.answer;
      return {statuses: source.answer, timeOrdered: true, rateLimit: null, requests: 1};
    },
  };
  return source;
}

for (const database of databases) {
  describe.skipIf(database.unavailable !== null)(`the ingestor cycle on ${database.kind}`, () => {
    let created: {connection: string; drop(): Promise<void>};
    let dir: string;
    let network: SocialNetwork;
    let reader: LocalReaderService;
    const time = clock('2026-11-24T10:30:00Z');
    let judge: RelevanceJudge = noJudge;

    const open = () =>
      createReaderService({
        connection: created.connection,
        deps: {now: time.now},
        ingestors: {keyFile: join(dir, 'reader.key'), openJudge: async () => judge},
      });

    beforeAll(async () => {
      created = await database.create();
      dir = mkdtempSync(join(tmpdir(), 'wb-cycle-'));
      network = await startSocialNetwork({network: 'mastodon', posts: []});
      reader = await open();
    });
    afterAll(async () => {
      await reader?.close();
      await network?.close();
      await created?.drop();
      rmSync(dir, {recursive: true, force: true});
    });

    const posts = (n: number, start: string, prefix = 'Post') =>
      makePosts(n, {authors: ['alice', 'bob'], start, prefix}).map((post) => ({...post, tags: ['rust'], boostedBy: undefined, replyTo: undefined, link: undefined}));
    const deps = (): CycleDeps => ({store: reader.store, now: time.now, openJudge: async () => judge});
    /** The stored ingestor as the service would hand it to the cycle, with another source. */
    const runnable = async (id: number, source: NetworkSource, secrets: string[] = [], llmEnabled = false, more: Partial<RunnableIngestor> = {}): Promise<RunnableIngestor> => {
      const row = (await findIngestorRow(reader.store.db, id))!;
      return {
        id,
        feedId: Number(row.feed_id),
        kind: 'kind_1',
        source,
        networkConfig: {},
        secrets,
        maxStatuses: 200,
        rules: parseScoringRules(undefined),
        threshold: 0,
        llmEnabled,
        digestMode: row.digest_mode as RunnableIngestor['digestMode'],
        fetchIntervalMin: Number(row.fetch_interval_min),
        consecutiveFailures: Number(row.consecutive_failures),
        nextDigestAt: row.next_digest_at === null ? null : Number(row.next_digest_at),
        ...more,
      };
    };
    const ledger = async (id: number) =>
      ((await reader.store.db('ingestor_statuses').select('status_key', 'fate', 'article_id').where('ingestor_id', id)) as {status_key: string; fate: string}[]).map(
        (row) => `${row.status_key}:${row.fate}`,
      );
    const count = async (table: string, where: Record<string, unknown>) => Number((await reader.store.db(table).where(where).count({n: '*'}))[0]!.n);

    it('a deleted status takes its article with it: unread counts stay right, its list entry and categories go', async () => {
      time.set('2026-11-24T10:30:00Z');
      network.setPosts(posts(6, '2026-11-24T10:20:00Z'));
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, filterThreshold: 0});
      expect(await reader.runIngestor(made.id)).toMatchObject({added: 6});
      const articles = (await reader.listArticles({feed_id: made.feedId, limit: 10})).articles;
      const byPost = (id: number) => articles.find((article) => article.title.startsWith(`Post ${id} `))!;
      // Post 3 read and in a list, post 4 unread: both deleted on the network.
      await reader.setRead(byPost(3).id, true);
      await reader.setRead(byPost(5).id, true);
      const list = await reader.createList('Keep', 'private');
      await reader.addToList(list.id, byPost(3).id);
      await reader.addToList(list.id, byPost(2).id);
      expect((await reader.getFeed(made.feedId)).unreadCount).toBe(4);
      expect(await count('article_categories', {feed_id: made.feedId})).toBe(6);

      network.remove(3);
      network.remove(4);
      time.set('2026-11-24T10:50:00Z');
      expect(await reader.runIngestor(made.id)).toMatchObject({deleted: 2, added: 0});
      expect((await reader.getFeed(made.feedId)).unreadCount).toBe(3);
      expect((await reader.listArticles({feed_id: made.feedId, limit: 10})).articles).toHaveLength(4);
      expect((await reader.listArticles({list_id: list.id})).articles.map((article) => article.title)).toEqual([byPost(2).title]);
      expect(await count('article_categories', {feed_id: made.feedId})).toBe(4);
      expect((await ledger(made.id)).length).toBe(4);
      // The feed mirrors its ingestor: GET /feeds shows when it fills next.
      const feed = await reader.getFeed(made.feedId);
      expect(feed).toMatchObject({fetchStatus: 'ok', nextFetchAt: (await reader.getIngestor(made.id)).nextFetchAt});
      await reader.deleteIngestor(made.id);
    });

    it('pending statuses survive a restart; a deleted one leaves the digest; the boundary writes one digest of what was gathered before it', async () => {
      time.set('2026-11-24T10:30:00Z');
      network.setPosts(posts(5, '2026-11-24T10:25:00Z'));
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, digestMode: 'hourly', filterThreshold: 0});
      expect(await reader.runIngestor(made.id)).toMatchObject({added: 5, digests: 0});
      network.remove(2);
      time.set('2026-11-24T10:45:00Z');
      expect(await reader.runIngestor(made.id)).toMatchObject({deleted: 1});
      expect((await reader.getIngestor(made.id)).pendingDigestCount).toBe(4);

      // A restart: the pending statuses are rows, the next boundary is a column.
      await reader.close();
      reader = await open();
      expect(await reader.getIngestor(made.id)).toMatchObject({pendingDigestCount: 4, nextDigestAt: '2026-11-24T11:00:00.000Z'});

      // Past the boundary, the network has two new posts: they wait for the next digest.
      time.set('2026-11-24T11:02:00Z');
      network.addPosts(posts(2, '2026-11-24T11:01:00Z', 'Later').map((post) => ({...post, id: post.id + 100})));
      expect(await reader.runIngestor(made.id)).toMatchObject({digests: 1, added: 2});
      const [digest, ...others] = (await reader.listArticles({feed_id: made.feedId})).articles;
      expect(others).toHaveLength(0);
      expect(digest!.title).toMatch(/ — digest, 24 Nov 2026 10:00–11:00 UTC \(4 posts\)$/);
      const row = (await reader.store.db('articles').select('item_key').where('id', digest!.id).first()) as {item_key: string};
      expect(row.item_key).toBe(`digest:${made.id}:${Date.parse('2026-11-24T11:00:00Z')}`);
      expect(await reader.getIngestor(made.id)).toMatchObject({pendingDigestCount: 2, nextDigestAt: '2026-11-24T12:00:00.000Z'});

      // A digested status deleted later stays in its digest.
      network.remove(4);
      time.set('2026-11-24T11:20:00Z');
      await reader.runIngestor(made.id);
      expect((await ledger(made.id)).filter((entry) => entry.endsWith(':digested'))).toHaveLength(4);
      expect((await reader.listArticles({feed_id: made.feedId})).articles).toHaveLength(1);
      await reader.deleteIngestor(made.id);
    });

    it('in a digest mode, a status dropped before and kept now is added to the pending ones', async () => {
      time.set('2026-11-24T15:10:00Z');
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, digestMode: 'hourly'});
      const source = scriptedSource();
      const rules = {rules: parseScoringRules({keywords: {hidden: -6}}), threshold: 0.25};
      source.answer = [status('d-1', 'Something hidden for now', '2026-11-24T15:05:00Z'), status('d-2', 'Plain words', '2026-11-24T15:04:00Z')];
      expect(await runIngestorCycle(deps(), await runnable(made.id, source, [], false, rules), {fetch: true, title: 'T'})).toMatchObject({kept: 1, dropped: 1, added: 1});
      source.answer = [status('d-1', 'Something shown now', '2026-11-24T15:05:00Z'), status('d-2', 'Plain words', '2026-11-24T15:04:00Z')];
      time.set('2026-11-24T15:20:00Z');
      expect(await runIngestorCycle(deps(), await runnable(made.id, source, [], false, rules), {fetch: true, title: 'T'})).toMatchObject({added: 1});
      expect((await reader.getIngestor(made.id)).pendingDigestCount).toBe(2);
      await reader.deleteIngestor(made.id);
    });

    it('a network that fails at the boundary does not hold the digest back', async () => {
      time.set('2026-11-24T12:30:00Z');
      network.setPosts(posts(3, '2026-11-24T12:20:00Z'));
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, digestMode: 'daily', filterThreshold: 0});
      await reader.runIngestor(made.id);
      expect((await reader.getIngestor(made.id)).nextDigestAt).toBe('2026-11-25T00:00:00.000Z');
      network.fault({status: 500});
      time.set('2026-11-25T00:10:00Z');
      await expect(reader.runIngestor(made.id)).rejects.toThrow(/500/);
      network.fault(null);
      const state = await reader.getIngestor(made.id);
      expect(state).toMatchObject({status: 'error', pendingDigestCount: 0, nextDigestAt: '2026-11-26T00:00:00.000Z'});
      const articles = (await reader.listArticles({feed_id: made.feedId})).articles;
      expect(articles.map((article) => article.title)).toEqual([expect.stringMatching(/ — digest, 24 Nov 2026 UTC \(3 posts\)$/)]);
      expect(await reader.getFeed(made.feedId)).toMatchObject({fetchStatus: 'error', nextFetchAt: state.nextFetchAt});
      await reader.deleteIngestor(made.id);
    });

    it('a status key longer than the column is ingested once, edited in place and deleted', async () => {
      time.set('2026-11-24T13:00:00Z');
      network.setPosts([]);
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, filterThreshold: 0});
      const source = scriptedSource();
      const long = `at://did:plc:${'x'.repeat(300)}/app.bsky.feed.post/1`;
      source.answer = [status(long, 'A long-keyed post', '2026-11-24T12:50:00Z'), status('short', 'A short one', '2026-11-24T12:40:00Z')];
      expect(await runIngestorCycle(deps(), await runnable(made.id, source), {fetch: true, title: 'T'})).toMatchObject({added: 2});
      expect(await runIngestorCycle(deps(), await runnable(made.id, source), {fetch: true, title: 'T'})).toMatchObject({added: 0, updated: 0, deleted: 0});
      source.answer = [status(long, 'A long-keyed post, edited', '2026-11-24T12:50:00Z'), status('short', 'A short one', '2026-11-24T12:40:00Z')];
      expect(await runIngestorCycle(deps(), await runnable(made.id, source), {fetch: true, title: 'T'})).toMatchObject({added: 0, updated: 1});
      expect((await reader.listArticles({feed_id: made.feedId})).articles.map((article) => article.title)).toEqual(['A long-keyed post, edited', 'A short one']);
      source.answer = [status(long, 'A long-keyed post, edited', '2026-11-24T12:50:00Z', {deleted: true}), status('short', 'A short one', '2026-11-24T12:40:00Z')];
      expect(await runIngestorCycle(deps(), await runnable(made.id, source), {fetch: true, title: 'T'})).toMatchObject({deleted: 1});
      expect((await reader.listArticles({feed_id: made.feedId})).articles.map((article) => article.title)).toEqual(['A short one']);
      expect((await reader.getFeed(made.feedId)).unreadCount).toBe(1);
      await reader.deleteIngestor(made.id);
    });

    it('an edit that changes the tags moves the categories; a garbled time is stored as now; an ingestor removed mid-fetch writes nothing', async () => {
      time.set('2026-11-24T14:00:00Z');
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, filterThreshold: 0});
      const source = scriptedSource();
      source.answer = [status('tagged', 'Tagged post', '2026-11-24T13:59:00Z', {tags: ['rust', 'old']}), status('no-time', 'Timeless post', 'not a date')];
      expect(await runIngestorCycle(deps(), await runnable(made.id, source), {fetch: true, title: 'T'})).toMatchObject({added: 2});
      source.answer = [status('tagged', 'Tagged post, edited', '2026-11-24T13:59:00Z', {tags: ['rust', 'new']}), status('no-time', 'Timeless post', 'not a date')];
      expect(await runIngestorCycle(deps(), await runnable(made.id, source), {fetch: true, title: 'T'})).toMatchObject({updated: 1, deleted: 0});
      expect(await reader.categories(made.feedId)).toEqual([
        {name: 'new', count: 1},
        {name: 'rust', count: 1},
      ]);
      const tagged = (await reader.listArticles({feed_id: made.feedId})).articles.find((article) => article.title === 'Tagged post, edited')!;
      expect(tagged.categories).toEqual(['rust', 'new']);

      // Removed while its fetch is in flight: the cycle writes nothing and says why.
      const ready = await runnable(made.id, source);
      source.answer = [status('late', 'Arrives after the removal', '2026-11-24T13:59:30Z')];
      const fetch = source.fetch.bind(source);
      source.fetch = async (...args) => {
        await reader.deleteIngestor(made.id);
        return fetch(...args);
      };
      await expect(runIngestorCycle(deps(), ready, {fetch: true, title: 'T'})).rejects.toMatchObject({code: 'not_found'});
      expect(await count('ingestor_statuses', {ingestor_id: made.id})).toBe(0);
      expect(await count('articles', {feed_id: made.feedId})).toBe(0);
    });

    it("the network's HTML is stored sanitised; realtime articles carry no score line", async () => {
      time.set('2026-11-24T13:00:00Z');
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, filterThreshold: 0});
      const source = scriptedSource();
      source.answer = [
        status('html-1', 'Look at this', '2026-11-24T12:59:00Z', {
          html: '<p onclick="steal()">Look <a href="javascript:alert(1)">at</a> <a href="/tags/rust">this</a><script>alert(2)</script><img src=x onerror="alert(3)"></p>',
          tags: ['rust', 'web'],
        }),
      ];
      await runIngestorCycle(deps(), await runnable(made.id, source), {fetch: true, title: 'T'});
      const [article] = (await reader.listArticles({feed_id: made.feedId})).articles;
      const full = await reader.getArticle(article!.id);
      expect(full.content).not.toMatch(/script|onerror|onclick|javascript:/);
      expect(full.content).toContain('href="https://social.example/tags/rust"');
      expect(full.content).not.toMatch(/score/i);
      expect(full).toMatchObject({title: 'Look at this', author: 'Alice (@alice)', categories: ['rust', 'web']});
      await reader.deleteIngestor(made.id);
    });

    it('a judge that throws leaves the ingestor degraded and the statuses stored; judgements are cached per status', async () => {
      time.set('2026-11-24T13:00:00Z');
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, filterThreshold: 0});
      const source = scriptedSource();
      source.answer = Array.from({length: 120}, (_, index) =>
        status(`j-${index}`, `Status number ${index} about things`, new Date(Date.parse('2026-11-24T12:00:00Z') + index * 1000).toISOString()),
      );
      judge = {
        judge: async () => {
          throw new Error('agent config unreadable near tok-secret-4242');
        },
      };
      const summary = await runIngestorCycle(deps(), await runnable(made.id, source, ['tok-secret-4242'], true), {fetch: true, title: 'T'});
      expect(summary).toMatchObject({added: 120, llm: {state: 'unavailable', calls: 0}});
      const state = await reader.getIngestor(made.id);
      expect(state.status).toBe('degraded');
      expect(state.statusMessage).toMatch(/scored without the model: the model was not asked: agent config unreadable/);
      expect(state.statusMessage).not.toContain('tok-secret-4242');

      // A working judge: at most one call per 50 statuses, and the next cycle asks nothing again.
      const asked: number[] = [];
      judge = {
        judge: async (statuses, _interests, options) => {
          asked.push(options.maxCalls);
          return {judgements: new Map(statuses.map((item) => [item.key, {relevance: 0.9, why: 'on topic'}])), calls: Math.ceil(statuses.length / 50), unjudged: 0, problem: null};
        },
      };
      // Edited statuses are judged again (the cache holds while the text is the same).
      source.answer = source.answer.map((item) => ({...item, text: `${item.text} (edited)`}));
      const judged = await runIngestorCycle(deps(), await runnable(made.id, source, [], true), {fetch: true, title: 'T'});
      expect(judged).toMatchObject({updated: 120, llm: {state: 'ok', calls: 3}});
      expect(asked).toEqual([3]);
      expect((await reader.getIngestor(made.id)).status).toBe('ok');
      await reader.deleteIngestor(made.id);
      judge = noJudge;
    });

    it("with the agent module's model: judgements asked in batches and cached; an endpoint that goes down or no credential leaves it degraded, statuses stored", async () => {
      time.set('2026-11-24T13:00:00Z');
      const home = mkdtempSync(join(tmpdir(), 'wb-cycle-model-'));
      const endpoint = await startModelEndpoint({key: 'sk-model-secret-5678'});
      try {
        endpoint.respond = ({body}) => {
          const count = (JSON.stringify(body).match(/s\d+ \(@/g) ?? []).length;
          return {text: JSON.stringify(Array.from({length: count}, (_, index) => ({id: `s${index + 1}`, relevance: 0.8, why: 'about Rust'})))};
        };
        writeFileSync(join(home, '.workbench.kdl'), `agent {\n  base-url "${endpoint.url}"\n}\n`);
        judge = await openModelJudge({cwd: home, env: {MESSAGES_API_KEY: 'sk-model-secret-5678'}, home, timeoutMs: 5000});
        const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, filterThreshold: 0});
        const source = scriptedSource();
        source.answer = Array.from({length: 70}, (_, index) =>
          status(`m-${index}`, `Model status ${index}`, new Date(Date.parse('2026-11-24T12:00:00Z') + index * 1000).toISOString()),
        );
        const first = await runIngestorCycle(deps(), await runnable(made.id, source, [], true), {fetch: true, title: 'T'});
        expect(first).toMatchObject({added: 70, llm: {state: 'ok', calls: 2, cached: 0}});
        expect(endpoint.requests).toHaveLength(2);
        expect(await count('ingestor_statuses', {ingestor_id: made.id, llm_why: 'about Rust'})).toBe(70);
        // Nothing changed: nothing to ask.
        expect(await runIngestorCycle(deps(), await runnable(made.id, source, [], true), {fetch: true, title: 'T'})).toMatchObject({llm: {calls: 0}});
        expect(endpoint.requests).toHaveLength(2);

        // The endpoint goes down; new statuses still flow, scored without the model.
        await endpoint.close();
        source.answer = [...source.answer, status('m-new', 'A new one', '2026-11-24T12:59:00Z')];
        expect(await runIngestorCycle(deps(), await runnable(made.id, source, [], true), {fetch: true, title: 'T'})).toMatchObject({added: 1});
        let state = await reader.getIngestor(made.id);
        expect(state.status).toBe('degraded');
        expect(state.statusMessage).toMatch(/scored without the model: .*the model failed/);
        expect(JSON.stringify(state)).not.toContain('sk-model-secret-5678');

        // No credential at all: the model is not asked, and the status says how to fix it.
        judge = await openModelJudge({cwd: home, env: {}, home});
        source.answer = [...source.answer, status('m-newer', 'A newer one', '2026-11-24T12:59:30Z')];
        expect(await runIngestorCycle(deps(), await runnable(made.id, source, [], true), {fetch: true, title: 'T'})).toMatchObject({added: 1, llm: {state: 'unavailable'}});
        state = await reader.getIngestor(made.id);
        expect(state).toMatchObject({status: 'degraded', statusMessage: expect.stringMatching(/no model credential: set MESSAGES_API_KEY/)});
        await reader.deleteIngestor(made.id);
      } finally {
        judge = noJudge;
        await endpoint.close().catch(() => undefined);
        rmSync(home, {recursive: true, force: true});
      }
    });

    it('a network error that echoes a credential: cut out of the status, the feed, the thrown error and the test answer', async () => {
      time.set('2026-11-24T13:00:00Z');
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}});
      const source = scriptedSource();
      source.answer = new WorkbenchError('unauthorized', 'the server said: bad token tok-echoed-777 (401); check the config’s accessToken');
      const run = runIngestorCycle(deps(), await runnable(made.id, source, ['tok-echoed-777']), {fetch: true, title: 'T'});
      await expect(run).rejects.toThrow(/check the config’s accessToken/);
      await expect(run).rejects.not.toThrow(/tok-echoed-777/);
      const state = await reader.getIngestor(made.id);
      expect(state.status).toBe('error');
      expect(state.statusMessage).toContain('[redacted]');
      expect(JSON.stringify(state)).not.toContain('tok-echoed-777');
      expect(JSON.stringify(await reader.getFeed(made.feedId))).not.toContain('tok-echoed-777');
      const tested = testIngestorCycle(deps(), {...(await runnable(made.id, source, ['tok-echoed-777'])), id: null, feedId: null});
      await expect(tested).rejects.toMatchObject({code: 'unauthorized', message: expect.not.stringContaining('tok-echoed-777')});
      await reader.deleteIngestor(made.id);
    });

    it('few requests left in the rate-limit window: the next fetch waits for its reset', async () => {
      // The stand-in dates its reset from the real clock.
      time.set(new Date().toISOString());
      network.setPosts(posts(2, new Date().toISOString()));
      network.rateLimit({limit: 300, remaining: 3, reset: 7200});
      try {
        const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, fetchIntervalMin: 15});
        await reader.runIngestor(made.id);
        const state = await reader.getIngestor(made.id);
        expect(state.status).toBe('ok');
        expect(Date.parse(state.nextFetchAt!) - time.now().getTime()).toBeGreaterThan(60 * 60_000);
        expect(await reader.dueIngestors(new Date(time.now().getTime() + 30 * 60_000), 10)).not.toContain(made.id);
        await reader.deleteIngestor(made.id);
      } finally {
        network.rateLimit(null);
      }
    });

    it("an author's usual engagement is the median of their last 20 statuses; old dropped statuses no longer listed are forgotten", async () => {
      time.set('2026-11-24T16:00:00Z');
      const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, filterThreshold: 0.99});
      const source = scriptedSource();
      const day = 86_400_000;
      // 25 statuses by alice, one a day back from yesterday; the newest has the most engagement (25 … 1).
      const old = (index: number) =>
        status(`old-${index}`, `Old status ${index}`, new Date(Date.parse('2026-11-23T16:00:00Z') - index * day).toISOString(), {
          engagement: {likes: 25 - index, reposts: 0, replies: 0},
        });
      source.answer = [...Array.from({length: 25}, (_, index) => old(index)), status('bob-1', 'By bob', '2026-11-24T15:00:00Z', {author: {handle: 'bob', name: null, url: null}})];
      expect(await runIngestorCycle(deps(), await runnable(made.id, source, [], false, {threshold: 0.99}), {fetch: true, title: 'T'})).toMatchObject({dropped: 26});
      // The latest 20 of alice: engagement 25 … 6, median 15.5; bob: his one status.
      const usual = await authorsUsual(reader.store.db, made.id, ['alice', 'bob', 'nobody']);
      expect(usual.get('alice')).toBe(15.5);
      expect(usual.get('bob')).toBe(1);
      expect(usual.has('nobody')).toBe(false);

      // Listed again: nothing is forgotten. No longer listed: those older than two weeks go, the rest stay.
      time.set('2026-11-24T16:30:00Z');
      await runIngestorCycle(deps(), await runnable(made.id, source, [], false, {threshold: 0.99}), {fetch: true, title: 'T'});
      expect(await count('ingestor_statuses', {ingestor_id: made.id})).toBe(26);
      source.answer = [status('bob-2', 'By bob again', '2026-11-24T16:20:00Z', {author: {handle: 'bob', name: null, url: null}})];
      time.set('2026-11-24T17:00:00Z');
      await runIngestorCycle(deps(), await runnable(made.id, source, [], false, {threshold: 0.99}), {fetch: true, title: 'T'});
      // Posted before 2026-11-10T17:00Z: old-13 (16:00 that day) … old-24, 12 of them.
      expect(await count('ingestor_statuses', {ingestor_id: made.id})).toBe(27 - 12);
      await reader.deleteIngestor(made.id);
    });

    it('a test cycle stores nothing and cuts each text to 280 characters', async () => {
      time.set('2026-11-24T13:00:00Z');
      const source = scriptedSource();
      source.answer = [status('t-1', 'word '.repeat(200), '2026-11-24T12:59:00Z'), status('t-1', 'a duplicate key', '2026-11-24T12:59:00Z')];
      const before = await count('ingestor_statuses', {});
      const result = await testIngestorCycle(deps(), {
        id: null,
        feedId: null,
        kind: 'kind_1',
        source,
        networkConfig: {},
        secrets: [],
        maxStatuses: 10,
        rules: parseScoringRules(undefined),
        threshold: 0,
        llmEnabled: false,
        digestMode: 'realtime',
        fetchIntervalMin: 15,
        consecutiveFailures: 0,
        nextDigestAt: null,
      });
      expect(result.fetched).toBe(2);
      expect(result.kept.length + result.dropped.length).toBe(1);
      expect(result.kept[0]!.text.length).toBeLessThanOrEqual(280);
      expect(await count('ingestor_statuses', {})).toBe(before);
    });
  });
}
