import type {ChildProcess} from 'node:child_process';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFeedOrigin, type FeedOrigin} from '../../fixtures/feed-origin/server.js';
import {eventually, expectOneLineFailure, makeSandbox, runCli, runCliJson, spawnCli, type Sandbox} from '../helpers/cli.js';

// The CLI faces of the feed reader, run as users run them: the built CLI against a store in a
// private WORKBENCH_HOME (in-process) and against `workbench serve reader`, feeds served by a
// local origin on 127.0.0.1 from the shared fixture corpus.

const FIXTURE = '/data/miniflux/internal/reader/parser/testdata/large_rss.xml';

let sandbox: Sandbox;
let origin: FeedOrigin;
const cli = (args: string[], env = sandbox.env) => runCli(args, {env, timeoutMs: 30_000});
const json = <T>(args: string[], env = sandbox.env): Promise<T> => runCliJson<T>(args, {env, timeoutMs: 30_000});
const failsWith = async (args: string[], pattern: RegExp) => expectOneLineFailure(await cli(args), pattern, args.join(' '));

interface FeedJson {
  id: number;
  url: string;
  title: string;
  unreadCount: number;
  fetchStatus: string;
}
interface ArticleJson {
  id: number;
  feedId: number;
  title: string;
  read: boolean;
  snoozedUntil?: string | null;
  listIds?: number[];
}
interface PageJson {
  articles: ArticleJson[];
  nextCursor: {before: string; before_id: number} | null;
}
interface ListJson {
  id: number;
  title: string;
  visibility: string;
  token?: string;
  rssUrl?: string;
  itemCount: number;
}

beforeAll(async () => {
  sandbox = makeSandbox('wb-feeds-cli-');
  origin = await startFeedOrigin({slowMs: 2000});
});

afterAll(async () => {
  await origin?.close();
  await sandbox?.cleanup();
});

describe('workbench feeds / articles / lists, in-process on the local store', () => {
  let feed: FeedJson;
  let articles: ArticleJson[];

  it('feeds add subscribes and fetches; feeds list shows it, as a table and as JSON', async () => {
    const added = await cli(['feeds', 'add', origin.url + FIXTURE]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^subscribed: feed \d+ "Artificial truth" · 25 unread · http:\/\/127\.0\.0\.1:\d+\/data\//);

    const feeds = await json<FeedJson[]>(['feeds', 'list']);
    expect(feeds).toHaveLength(1);
    feed = feeds[0]!;
    expect(feed).toMatchObject({url: origin.url + FIXTURE, title: 'Artificial truth', unreadCount: 25, fetchStatus: 'ok'});

    const table = await cli(['feeds']);
    expect(table.stdout).toMatch(/^ID\s+UNREAD\s+STATUS\s+LAST OK\s+TITLE\s+URL\n/);
    expect(table.stdout).toMatch(new RegExp(`^${feed.id}\\s+25\\s+ok\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+Artificial truth\\s+http`, 'm'));
  });

  it('feeds add on a page linking several feeds lists them and subscribes to none', async () => {
    const result = await cli(['feeds', 'add', origin.url + '/page/several.html']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^that page links \d+ feeds; add one of them by its URL:/);
    expect(result.stdout).toContain(origin.url + '/page/base/posts.xml');
    const choices = await json<{feeds: Array<{url: string}>}>(['feeds', 'add', origin.url + '/page/several.html']);
    expect(choices.feeds.map((choice) => choice.url)).toContain(origin.url + '/gen/comments.xml');
    expect(await json<FeedJson[]>(['feeds', 'list'])).toHaveLength(1);

    const discovered = await json<Array<{url: string; format: string | null}>>(['feeds', 'discover', origin.url + FIXTURE]);
    expect(discovered).toEqual([expect.objectContaining({url: origin.url + FIXTURE, format: 'rss'})]);
  });

  it('articles list pages newest first with a cursor: no article twice, none missing', async () => {
    const first = await json<PageJson>(['articles', 'list', '--feed', String(feed.id), '--limit', '10']);
    expect(first.articles).toHaveLength(10);
    expect(first.nextCursor).not.toBeNull();
    const seen = [...first.articles];
    let cursor = first.nextCursor;
    while (cursor) {
      const page: PageJson = await json<PageJson>([
        'articles',
        'list',
        '--feed',
        String(feed.id),
        '--limit',
        '10',
        '--before',
        cursor.before,
        '--before-id',
        String(cursor.before_id),
      ]);
      seen.push(...page.articles);
      cursor = page.nextCursor;
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen.map((article) => article.id)).size).toBe(25);
    articles = seen;
    expect(articles[0]!.title).toBe('Using vale with vim');

    const table = await cli(['articles', 'list', '--limit', '3']);
    expect(table.stdout).toMatch(/^ID\s+N\s+DATE\s+FEED\s+TITLE\n/);
    expect(table.stdout).toMatch(new RegExp(`^${articles[0]!.id}\\s+N\\s+2024-03-\\d\\d \\d\\d:\\d\\d\\s+Artificial truth\\s+Using vale with vim$`, 'm'));
    expect(table.stdout).toMatch(/\nmore: --before \S+ --before-id \d+\n$/);
  });

  it('articles show prints the article as text; read and unread move its state', async () => {
    const target = articles[0]!;
    const shown = await cli(['articles', 'show', String(target.id), '--width', '72']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout.split('\n').slice(0, 2)).toEqual(['Using vale with vim', 'Feed:    Artificial truth']);
    expect(shown.stdout).toContain('Link:    https://dustri.org/b/using-vale-with-vim.html');
    expect(shown.stdout).toContain('LWN <https://en.wikipedia.org/wiki/LWN.net>');
    expect(shown.stdout).not.toMatch(/<p>|&lt;/);
    // Prose is wrapped at --width (preformatted code keeps its lines).
    const firstParagraph = shown.stdout.split('\n\n')[1]!.split('\n');
    expect(firstParagraph.length).toBeGreaterThan(3);
    for (const line of firstParagraph) expect(line.length).toBeLessThanOrEqual(72);

    const read = await cli(['articles', 'read', String(target.id)]);
    expect(read.stdout).toBe(`article ${target.id} marked read: Using vale with vim\n`);
    const unread = await json<PageJson>(['articles', 'list', '--unread', '--limit', '50']);
    expect(unread.articles.map((article) => article.id)).not.toContain(target.id);
    expect(unread.articles).toHaveLength(24);
    const back = await json<ArticleJson>(['articles', 'unread', String(target.id)]);
    expect(back).toMatchObject({id: target.id, read: false});
  });

  it('articles snooze --until 1h hides it from the unread list until then; unsnooze brings it back', async () => {
    const target = articles[1]!;
    const before = Date.now();
    const snoozed = await json<ArticleJson>(['articles', 'snooze', String(target.id), '--until', '1h']);
    const until = Date.parse(snoozed.snoozedUntil!);
    expect(until - before).toBeGreaterThanOrEqual(3_600_000 - 1000);
    expect(until - Date.now()).toBeLessThanOrEqual(3_600_000);
    const unread = await json<PageJson>(['articles', 'list', '--unread', '--limit', '50']);
    expect(unread.articles.map((article) => article.id)).not.toContain(target.id);

    const people = await cli(['articles', 'snooze', String(target.id), '--until', 'tomorrow']);
    expect(people.stdout).toMatch(new RegExp(`^article ${target.id} snoozed until \\d{4}-\\d\\d-\\d\\d 08:00: `));

    await json<ArticleJson>(['articles', 'unsnooze', String(target.id)]);
    const again = await json<PageJson>(['articles', 'list', '--unread', '--limit', '50']);
    expect(again.articles.map((article) => article.id)).toContain(target.id);
  });

  it('lists: create a public list, save an article to it, see it by --list, remove it', async () => {
    const list = await json<ListJson>(['lists', 'create', 'Shared picks', '--public']);
    expect(list).toMatchObject({title: 'Shared picks', visibility: 'public', itemCount: 0});
    expect(list.token).toBeTruthy();
    expect(list.rssUrl).toMatch(new RegExp(`/api/v1/lists/${list.token}\\.xml$`));
    const privateList = await cli(['lists', 'create', 'Later']);
    expect(privateList.stdout).toMatch(/^created list \d+ "Later" · private · 0 items\n$/);

    const target = articles[2]!;
    const added = await cli(['lists', 'add', String(list.id), String(target.id)]);
    expect(added.stdout).toMatch(new RegExp(`^article ${target.id} saved to list ${list.id} "Shared picks" · public · 1 item · http`));
    const inList = await json<PageJson>(['articles', 'list', '--list', String(list.id)]);
    expect(inList.articles.map((article) => article.id)).toEqual([target.id]);

    const table = await cli(['lists']);
    expect(table.stdout).toMatch(new RegExp(`^${list.id}\\s+public\\s+1\\s+Shared picks\\s+http\\S+\\.xml$`, 'm'));
    expect(table.stdout).toMatch(/^\d+\s+private\s+0\s+Later\s+-$/m);

    const removed = await json<ListJson>(['lists', 'remove', String(list.id), String(target.id)]);
    expect(removed.itemCount).toBe(0);
    const deleted = await cli(['lists', 'delete', String(list.id)]);
    expect(deleted.stdout).toBe(`deleted list ${list.id}\n`);
    expect((await json<ListJson[]>(['lists', 'list'])).map((item) => item.title)).toEqual(['Later']);
  });

  it('feeds refresh and mark-read answer with counts', async () => {
    const refreshed = await cli(['feeds', 'refresh', String(feed.id)]);
    expect(refreshed.stdout).toBe(`feed ${feed.id}: 0 new articles\n`);
    const all = await cli(['feeds', 'refresh']);
    expect(all.stdout).toBe('1 feed refreshed: 0 new articles\n');
    const marked = await json<{marked: number}>(['feeds', 'mark-read', String(feed.id)]);
    expect(marked.marked).toBe(25);
    expect((await json<FeedJson[]>(['feeds', 'list']))[0]!.unreadCount).toBe(0);
  });

  it('feeds export writes OPML that feeds import reads into another store', async () => {
    const exported = await cli(['feeds', 'export']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/<opml[\s>]/);
    expect(exported.stdout).toContain(`xmlUrl="${origin.url + FIXTURE}"`);
    const file = join(sandbox.dir, 'subscriptions.opml');
    writeFileSync(file, exported.stdout);

    const other = makeSandbox('wb-feeds-import-');
    try {
      const imported = await cli(['feeds', 'import', file], other.env);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toBe('imported: 1 added, 0 already subscribed, 0 failed\n');
      const feeds = await json<FeedJson[]>(['feeds', 'list'], other.env);
      expect(feeds.map((item) => item.url)).toEqual([origin.url + FIXTURE]);
      const again = await json<{added: number; skipped: number}>(['feeds', 'import', file], other.env);
      expect(again).toMatchObject({added: 0, skipped: 1});
    } finally {
      await other.cleanup();
    }
  });

  it('bad input: one line, exit 1, nothing changed', async () => {
    await failsWith(['articles', 'read', 'abc'], /article id must be a whole number, got "abc"/);
    await failsWith(['feeds', 'remove', '0'], /feed id must be 1 or more, got 0/);
    await failsWith(['articles', 'read', '987654'], /no article 987654/);
    await failsWith(['feeds', 'refresh', '4242'], /no feed 4242/);
    await failsWith(['lists', 'add', '1', 'x1'], /article id must be a whole number/);
    await failsWith(
      ['articles', 'snooze', String(articles[0]!.id), '--until', 'yesterday-ish'],
      /--until: expected an ISO 8601 time, a duration like 30m, 1h or 2d, or "tomorrow"; got "yesterday-ish"/,
    );
    await failsWith(['articles', 'snooze', String(articles[0]!.id), '--until', '2001-02-03T04:05:06Z'], /--until: 2001-02-03T04:05:06.000Z is in the past/);
    await failsWith(['articles', 'list', '--limit', '0'], /--limit must be 1 or more/);
    await failsWith(['articles', 'list', '--before', '2024-01-01T00:00:00Z'], /--before and --before-id go together/);
    await failsWith(['feeds', 'add', 'ftp://example.org/feed.xml'], /"ftp:\/\/example\.org\/feed\.xml" is not an http\(s\) URL/);
    await failsWith(['feeds', 'add', 'javascript:alert(1)'], /is not an http\(s\) URL/);
    await failsWith(['feeds', 'add', origin.url + '/page/none.html'], /feed|found/i);
    await failsWith(['feeds', 'import', join(sandbox.dir, 'missing.opml')], /no such file: .*missing\.opml/);
    const notOpml = join(sandbox.dir, 'not.opml');
    writeFileSync(notOpml, '{"feeds": []}');
    await failsWith(['feeds', 'import', notOpml], /not an OPML file/);
    await failsWith(['feeds', 'list', '--server', 'ftp://127.0.0.1:1'], /--server: "ftp:\/\/127\.0\.0\.1:1" is not an http\(s\) URL/);
    await failsWith(['feeds', 'list', '--server', 'http://127.0.0.1:1'], /reader server not reachable at http:\/\/127\.0\.0\.1:1/);
    // --json answers a failure as JSON too.
    const failed = await cli(['articles', 'read', '987654', '--json']);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toEqual({error: 'no article 987654'});
    expect(await json<FeedJson[]>(['feeds', 'list'])).toHaveLength(1);
  }, 120_000); // twenty CLI runs one after another: a bound for a loaded machine, not a figure
});

describe('workbench serve reader', () => {
  let server: ChildProcess | undefined;

  afterAll(() => {
    if (server && server.exitCode === null) server.kill('SIGKILL');
  });

  it('rejects a bad port or host in one line', async () => {
    await failsWith(['serve', 'reader', '--port', '70000'], /--port must be 0-65535, got 70000/);
    await failsWith(['serve', 'reader', '--port', 'http'], /--port must be a whole number/);
    await failsWith(['serve', 'reader', '--host', 'a b'], /--host: "a b" is not an address/);
  });

  it('serves the store over HTTP, announces itself to the other commands, and stops cleanly on SIGTERM', async () => {
    server = spawnCli(['serve', 'reader', '--port', '0'], {env: sandbox.env});
    let stdout = '';
    let stderr = '';
    server.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    server.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const url = await eventually(() => /^reader listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout)?.[1], 20_000, 50).catch(() => {
      throw new Error(`serve reader did not start: ${stdout}${stderr}`);
    });
    const state = JSON.parse(readFileSync(join(sandbox.home, 'services', 'reader.json'), 'utf8')) as {url: string; pid: number};
    expect(state).toMatchObject({url, pid: server.pid});

    const health = await fetch(`${url}/api/v1/health`);
    expect(await health.json()).toEqual({ok: true});

    // Named with --server, and found through services/reader.json without it: the same store either way.
    const named = await json<FeedJson[]>(['feeds', 'list', '--server', url!]);
    expect(named.map((item) => item.title)).toEqual(['Artificial truth']);
    const list = await json<ListJson>(['lists', 'create', 'Over HTTP', '--public']);
    expect(list.rssUrl).toBe(`${url}/api/v1/lists/${list.token}.xml`);
    const article = (await json<PageJson>(['articles', 'list', '--limit', '1', '--server', `${url}/api/v1`])).articles[0]!;
    await json<ListJson>(['lists', 'add', String(list.id), String(article.id), '--server', url!]);
    const rss = await fetch(list.rssUrl!);
    expect(rss.status).toBe(200);
    expect(await rss.text()).toContain(`<title>${article.title}</title>`);
    await failsWith(['articles', 'read', '987654', '--server', url!], /no article 987654/);

    server.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => server!.once('exit', (exitCode) => resolve(exitCode)));
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('reader stopped (SIGTERM)');
    expect(existsSync(join(sandbox.home, 'services', 'reader.json'))).toBe(false);
    // Gone: commands fall back to the store in-process.
    expect((await json<FeedJson[]>(['feeds', 'list'])).map((item) => item.title)).toEqual(['Artificial truth']);
  });
});

describe('feeds parse shows what feeds add stores', () => {
  it('resolves a relative item link against the document URL, in both', async () => {
    const own = makeSandbox('wb-feeds-parse-');
    try {
      const url = origin.url + '/data/feedparser/wellformed/base/http_item_link_base_docuri.xml';
      const parsed = await json<{items: Array<{link?: string}>}>(['feeds', 'parse', url], own.env);
      expect(parsed.items.map((item) => item.link)).toEqual([`${origin.url}/relative/uri`]);
      const added = await cli(['feeds', 'add', url], own.env);
      expect(added.code, added.stderr).toBe(0);
      const [feed] = await json<FeedJson[]>(['feeds', 'list'], own.env);
      const page = await json<{articles: Array<{link: string | null}>}>(['articles', 'list', '--feed', String(feed!.id)], own.env);
      expect(page.articles.map((article) => article.link)).toEqual(parsed.items.map((item) => item.link));
    } finally {
      await own.cleanup();
    }
  });
});
