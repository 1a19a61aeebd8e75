import type {ChildProcess} from 'node:child_process';
import {execFile} from 'node:child_process';
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {promisify} from 'node:util';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFeedOrigin, type FeedOrigin} from '../../../fixtures/feed-origin/server.js';
import {loadKnex} from '../../../source/storage/load-knex.js';
import {eventually, makeSandbox, runCli, spawnCli, type Sandbox} from '../../helpers/cli.js';
import {requirePackage} from '../../helpers/system-package.js';

// The Google Reader API proven with a real client: Debian's newsboat 2.21 through its FeedHQ
// client (`urls-source "feedhq"`), against `workbench serve reader` with its API password set by
// `workbench reader password`, feeds served by the local origin.

const run = promisify(execFile);
const NEWSBOAT = '/usr/bin/newsboat';
const present = !requirePackage('newsboat', {for: 'the real-client test of the Google Reader API'});

let sandbox: Sandbox;
let origin: FeedOrigin;
let server: ChildProcess | undefined;
let url = '';
const PASSWORD = 'newsboat-test-password';

beforeAll(async () => {
  sandbox = makeSandbox('wb-newsboat-');
  origin = await startFeedOrigin();
});
afterAll(async () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  await origin?.close();
  await sandbox?.cleanup();
});

const cli = async (args: string[], input?: string) => {
  const result = await runCli(args, {env: sandbox.env, timeoutMs: 30_000, input});
  if (result.code !== 0) throw new Error(`workbench ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
};

/** newsboat with its own config, urls and cache under the sandbox, HOME there too. */
async function newsboat(...args: string[]): Promise<string> {
  const dir = join(sandbox.dir, 'newsboat');
  const {stdout} = await run(NEWSBOAT, ['-C', join(dir, 'config'), '-u', join(dir, 'urls'), '-c', join(dir, 'cache.db'), ...args], {
    env: {...sandbox.env, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'xdg')},
    cwd: dir,
    timeout: 60_000,
  });
  return stdout;
}

/** Rows of newsboat's own cache (SQLite). */
async function newsboatCache<T>(file: string, sql: string): Promise<T[]> {
  const db = (await loadKnex())({client: 'better-sqlite3', connection: {filename: file}, useNullAsDefault: true});
  try {
    return (await db.raw(sql)) as T[];
  } finally {
    await db.destroy();
  }
}

describe.skipIf(!present)('newsboat 2.21 against the Google Reader API', () => {
  it('reloads through ClientLogin, shows the reader’s unread count and titles, and follows a read made through our API', async () => {
    server = spawnCli(['serve', 'reader', '--port', '0'], {env: sandbox.env});
    let stdout = '';
    server.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    url = await eventually(() => /^reader listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout)?.[1], 20_000, 50);

    await cli(['feeds', 'add', `${origin.url}/gen/newsboat-a.xml?items=9`]);
    await cli(['feeds', 'add', `${origin.url}/gen/newsboat-b.xml?items=4`]);
    await cli(['reader', 'password', '--user', 'nb'], `${PASSWORD}\n`);

    const dir = join(sandbox.dir, 'newsboat');
    mkdirSync(dir, {recursive: true});
    // The base ends in a slash, as the setup writes it: newsboat then asks for //accounts/ClientLogin.
    writeFileSync(
      join(dir, 'config'),
      [`urls-source "feedhq"`, `feedhq-url "${url}/"`, `feedhq-login "nb"`, `feedhq-password "${PASSWORD}"`, 'feedhq-min-items 100', ''].join('\n'),
    );
    writeFileSync(join(dir, 'urls'), '');

    await newsboat('-x', 'reload');
    const feeds = JSON.parse(await cli(['feeds', 'list', '--json'])) as Array<{unreadCount: number}>;
    const unread = feeds.reduce((sum, feed) => sum + feed.unreadCount, 0);
    expect(unread).toBe(13);
    expect(await newsboat('-x', 'print-unread')).toBe(`${unread} unread articles\n`);

    // The titles newsboat keeps are the reader's.
    const titles = (await newsboatCache<{title: string}>(join(dir, 'cache.db'), 'select title from rss_item order by title')).map((row) => row.title);
    const page = JSON.parse(await cli(['articles', 'list', '--limit', '100', '--json'])) as {articles: Array<{id: number; title: string}>};
    expect(titles).toEqual(page.articles.map((article) => article.title).sort());

    // Read through our API: newsboat agrees after its next reload.
    const article = page.articles.find((item) => item.title === 'Item 0 of newsboat-a')!;
    await cli(['articles', 'read', String(article.id)]);
    await newsboat('-x', 'reload');
    expect(await newsboat('-x', 'print-unread')).toBe(`${unread - 1} unread articles\n`);
    const [row] = await newsboatCache<{unread: number}>(join(dir, 'cache.db'), "select unread from rss_item where title = 'Item 0 of newsboat-a'");
    expect(row!.unread).toBe(0);
  });

  it('keeps each article whole: its body, and a title with & and <div> exactly as the origin wrote it', async () => {
    const dir = join(sandbox.dir, 'newsboat');
    await cli(['feeds', 'add', `${origin.url}/data/greader/escaped-titles.xml`]);
    await newsboat('-x', 'reload');
    const rows = await newsboatCache<{title: string; content: string}>(
      join(dir, 'cache.db'),
      "select title, content from rss_item where url like 'https://example.com/escaped/%' order by url",
    );
    expect(rows.map((row) => row.title)).toEqual(['Use <div> wisely: AT&T Q&A', 'First & foremost']);
    expect(rows.map((row) => row.content)).toEqual(['<p>The body of the <b>first</b> article.</p>', '<p>The body of the second article.</p>']);
  });

  it('stores a podcast episode’s media file from the reader’s Atom (rel="enclosure"): its URL and type', async () => {
    const dir = join(sandbox.dir, 'newsboat');
    await cli(['feeds', 'add', `${origin.url}/data/greader/podcast.xml`]);
    await newsboat('-x', 'reload');
    const rows = await newsboatCache<{title: string; enclosure_url: string | null; enclosure_type: string | null}>(
      join(dir, 'cache.db'),
      "select title, enclosure_url, enclosure_type from rss_item where url like 'https://podcast.example/%' order by url",
    );
    // newsboat 2.21 keeps one media file per item, the LAST rel="enclosure" it reads (each overwrites
    // the one before): for Episode 1, listed MP3 then Ogg in feed order, that is the Ogg.
    expect(rows).toEqual([
      {title: 'Episode 1', enclosure_url: 'https://cdn.podcast.example/ep1.ogg', enclosure_type: 'audio/ogg'},
      {title: 'Episode 2: the long one', enclosure_url: 'https://cdn.podcast.example/ep2.mp4?size=big&q=1', enclosure_type: 'video/mp4'},
      {title: 'Show notes', enclosure_url: '', enclosure_type: ''},
    ]);
  });
});
