import {randomBytes} from 'node:crypto';
import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {makeSandbox, runCli, type CliResult, type Sandbox} from '../../helpers/cli.js';
import {startGatewayProcess, startRssOrigin, type GatewayProcess} from '../../helpers/gateway-process.js';
import type {ChannelSummary as Channel, CreatedChannel as Created, ProxiedFeedStatus as FeedStatus} from '../../../source/gateway/types.js';

// The gateway's CLI faces (issue 9, item 8) as users run them: the built CLI against
// `workbench serve gateway` started here on a free port with its own WORKBENCH_HOME, proxying an
// origin on 127.0.0.1. Every flag also gets garbage.

const REFRESH_TOKEN = randomBytes(24).toString('hex');
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

let sandbox: Sandbox;
let origin: Awaited<ReturnType<typeof startRssOrigin>>;
let gateway: GatewayProcess | undefined;
let env: NodeJS.ProcessEnv;

const cli = (args: string[], environment = env) => runCli(args, {env: environment, timeoutMs: 30_000});
async function json<T>(args: string[], environment = env): Promise<T> {
  const result = await cli([...args, '--json'], environment);
  if (result.code !== 0) throw new Error(`workbench ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}
/** A failure is exit 1 and exactly one line on stderr, no stack, no secret. */
function expectFailure(result: CliResult, pattern: RegExp): void {
  expect(result.code, `${result.stdout}${result.stderr}`).toBe(1);
  expect(result.stderr).toMatch(/^workbench: [^\n]+\n$/);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toContain(REFRESH_TOKEN);
  noStack(result.stderr);
}
const failsWith = async (args: string[], pattern: RegExp, environment?: NodeJS.ProcessEnv) => expectFailure(await cli(args, environment), pattern);

beforeAll(async () => {
  sandbox = makeSandbox('wb-gateway-cli-');
  env = {...sandbox.env, REFRESH_TOKEN};
  origin = await startRssOrigin({
    '/news.xml': {title: 'Local news', items: ['Bridge reopens', 'Market day', 'Rain tomorrow']},
    '/blog.xml': {title: 'A blog', items: ['First post']},
  });
});

afterAll(async () => {
  await gateway?.stop();
  await origin?.close();
  await sandbox?.cleanup();
});

describe('workbench channels / gateway with no gateway running', () => {
  it('says the gateway is not running and how to start it, in one line', async () => {
    await failsWith(['gateway', 'feeds'], /gateway not running — workbench serve gateway starts it/);
    await failsWith(['channels', 'list'], /gateway not running — workbench serve gateway starts it/);
    await failsWith(['channels', 'create', '--title', 'x'], /gateway not running/);
    await failsWith(['gateway', 'feeds', '--url', 'http://127.0.0.1:1'], /gateway server not reachable at http:\/\/127\.0\.0\.1:1: ECONNREFUSED/);
  });

  it('refuses garbage in every flag before any request, as a sentence naming the flag', async () => {
    // --url
    await failsWith(['gateway', 'feeds', '--url', 'ftp://127.0.0.1:1'], /--url: "ftp:\/\/127\.0\.0\.1:1" is not an http\(s\) URL/);
    await failsWith(['channels', 'list', '--url', 'not a url'], /--url: "not a url" is not a URL/);
    await failsWith(['channels', 'list', '--url', ' '], /--url is empty/);
    await failsWith(['channels', 'list', '--url'], /--url needs a value/);
    // channels create: --title, --description, --ttl-hours
    await failsWith(['channels', 'create'], /a channel needs --title/);
    await failsWith(['channels', 'create', '--title', '   '], /--title must not be empty/);
    await failsWith(['channels', 'create', '--title'], /--title needs a value/);
    await failsWith(['channels', 'create', '--title', 'x', '--description'], /--description needs a value/);
    await failsWith(['channels', 'create', '--title', 'x', '--ttl-hours', 'abc'], /--ttl-hours must be a whole number, got "abc"/);
    await failsWith(['channels', 'create', '--title', 'x', '--ttl-hours', '1.5'], /--ttl-hours must be a whole number/);
    await failsWith(['channels', 'create', '--title', 'x', '--ttl-hours'], /--ttl-hours needs a value/);
    // channels post: the id, --token, --title, --link, --description
    await failsWith(['channels', 'post', 'a b', '--token', 't', '--title', 'x'], /"a b" is not a channel id/);
    await failsWith(['channels', 'post', '../etc', '--token', 't', '--title', 'x'], /"\.\.\/etc" is not a channel id/);
    await failsWith(['channels', 'post', 'abc', '--title', 'x'], /posting to a channel needs --token/);
    await failsWith(['channels', 'post', 'abc', '--token', '', '--title', 'x'], /--token must not be empty/);
    await failsWith(['channels', 'post', 'abc', '--token'], /--token needs a value/);
    await failsWith(['channels', 'post', 'abc', '--token', 't'], /an item needs --title/);
    await failsWith(['channels', 'post', 'abc', '--token', 't', '--title', 'x', '--link', 'nope'], /--link: "nope" is not a URL/);
    await failsWith(['channels', 'post', 'abc', '--token', 't', '--title', 'x', '--link', 'javascript:alert(1)'], /--link: "javascript:alert\(1\)" is not an http\(s\) URL/);
    await failsWith(['channels', 'post', 'abc', '--token', 't', '--title', 'x', '--description'], /--description needs a value/);
    // channels delete
    await failsWith(['channels', 'delete', 'abc'], /deleting a channel needs --token/);
    await failsWith(['channels', 'delete', 'a\u001b[2Jb', '--token', 't'], /is not a channel id/);
    // gateway status / refresh: the feed name
    await failsWith(['gateway', 'status', 'no such/feed'], /"no such\/feed" is not a feed name/);
    await failsWith(['gateway', 'refresh', '-'], /is not a feed name|unknown option/);
    await failsWith(['gateway', 'refresh', 'x'.repeat(70)], /is not a feed name/);
    // About forty cold starts of the CLI one after another: minutes on a loaded 2-core machine, not a hang.
  }, 180_000);

  it('keeps control characters from a flag out of the terminal', async () => {
    const result = await cli(['channels', 'post', 'x\u001b]0;pwned\u0007y z', '--token', 't', '--title', 'x']);
    expectFailure(result, /is not a channel id/);
    expect(result.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});

describe('against workbench serve gateway', () => {
  beforeAll(async () => {
    const project = join(sandbox.dir, 'project');
    mkdirSync(project, {recursive: true});
    gateway = await startGatewayProcess({
      env,
      home: sandbox.home,
      project,
      feeds: [
        {name: 'news', origin: `${origin.url}/news.xml`},
        {name: 'blog', origin: `${origin.url}/blog.xml`},
      ],
    });
  }, 60_000);

  it('gateway refresh polls an origin with REFRESH_TOKEN; gateway feeds lists the feeds with their items', async () => {
    const refreshed = await cli(['gateway', 'refresh', 'news']);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stdout).toMatch(/^news: (refreshed|not-modified)\n$/);
    expect(refreshed.stdout + refreshed.stderr).not.toContain(REFRESH_TOKEN);
    expect(await json<{id: string; status: string}>(['gateway', 'refresh', 'blog'])).toMatchObject({id: 'blog', status: expect.stringMatching(/^(ok|not-modified|skipped)$/)});

    const feeds = await json<FeedStatus[]>(['gateway', 'feeds']);
    expect(feeds.map((feed) => feed.name).sort()).toEqual(['blog', 'news']);
    const news = feeds.find((feed) => feed.name === 'news')!;
    expect(news).toMatchObject({origin: `${origin.url}/news.xml`, itemCount: 3, stale: false, feedUrl: `${gateway!.url}/news`});
    expect(news.lastSuccessAt).not.toBeNull();

    const table = await cli(['gateway']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^NAME\s+STATE\s+ITEMS\s+LAST OK\s+LAST FAILURE\s+NEXT POLL\s+ORIGIN\n/);
    expect(table.stdout).toMatch(new RegExp(`^news\\s+ok\\s+3\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+-\\s+.*${origin.url}/news\\.xml$`, 'm'));

    // The same feed through the gateway itself: its last good copy.
    const served = await fetch(`${gateway!.url}/news`);
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('Bridge reopens');
  });

  it('refresh needs REFRESH_TOKEN, and the right one', async () => {
    const noToken = {...env};
    delete noToken.REFRESH_TOKEN;
    await failsWith(['gateway', 'refresh', 'news'], /REFRESH_TOKEN/, noToken);
    const wrong = await cli(['gateway', 'refresh', 'news'], {...env, REFRESH_TOKEN: 'not-the-secret'});
    expectFailure(wrong, /./);
    expect(wrong.stderr).not.toContain('not-the-secret');
    await failsWith(['gateway', 'refresh', 'nosuchfeed'], /nosuchfeed|not found|unknown/i);
  });

  it('a failing origin marks the feed stale: feeds and status say so with the reason, and the last good copy is still served', async () => {
    origin.failing.add('/blog.xml');
    await failsWith(['gateway', 'refresh', 'blog'], /./);
    const blog = (await json<FeedStatus[]>(['gateway', 'feeds'])).find((feed) => feed.name === 'blog')!;
    expect(blog).toMatchObject({stale: true, itemCount: 1});
    expect(blog.lastFailureAt).not.toBeNull();
    expect(blog.lastError).toBeTruthy();

    const table = await cli(['gateway', 'feeds']);
    expect(table.stdout).toMatch(/^blog\s+stale\s+1\s/m);
    expect(table.stdout).toMatch(/^blog: .+$/m);
    const status = await cli(['gateway', 'status', 'blog']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^state:\s+stale: the origin failed since the last good poll/m);
    expect(status.stdout).toMatch(/^last failure:\s+\d{4}-\d\d-\d\d \d\d:\d\d: .+/m);
    expect(status.stdout).toContain(`url:          ${gateway!.url}/blog`);
    expect(await json<FeedStatus>(['gateway', 'status', 'blog'])).toMatchObject({name: 'blog', stale: true});

    const served = await fetch(`${gateway!.url}/blog`);
    expect(served.headers.get('x-feed-stale')).toBe('true');
    expect(await served.text()).toContain('First post');
    origin.failing.clear();
    await failsWith(['gateway', 'status', 'nosuchfeed'], /nosuchfeed|not found|unknown/i);
  });

  it('channels create prints the id, feed URL, expiry and the write token once; post, list and delete use them', async () => {
    const created = await cli(['channels', 'create', '--title', 'Deploys', '--description', 'What shipped', '--ttl-hours', '2']);
    expect(created.code, created.stderr).toBe(0);
    const id = /^created channel (\S+) "Deploys"$/m.exec(created.stdout)?.[1];
    expect(id).toBeTruthy();
    const feedUrl = /^feed:\s+(\S+)$/m.exec(created.stdout)?.[1];
    expect(feedUrl).toBe(`${gateway!.url}/${id}`);
    expect(created.stdout).toMatch(/^expires:\s+\d{4}-\d\d-\d\d \d\d:\d\d$/m);
    const token = /^token:\s+(\S+)$/m.exec(created.stdout)?.[1];
    expect(token!.length).toBeGreaterThanOrEqual(22);
    expect(created.stdout).toMatch(/keep the token: it is shown only this once/);

    const posted = await cli(['channels', 'post', id!, '--token', token!, '--title', 'v1.2 is out', '--link', 'https://example.org/v1.2', '--description', 'Faster feeds']);
    expect(posted.code, posted.stderr).toBe(0);
    expect(posted.stdout).toBe(`posted to channel ${id}: v1.2 is out\n`);
    expect(await json(['channels', 'post', id!, '--token', token!, '--title', 'v1.3'])).toEqual({ok: true});
    const feed = await (await fetch(feedUrl!)).text();
    expect(feed).toContain('v1.2 is out');
    expect(feed).toContain('https://example.org/v1.2');

    const channels = await json<Channel[]>(['channels', 'list']);
    expect(channels).toContainEqual(expect.objectContaining({id, title: 'Deploys', itemCount: 2, feedUrl}));
    const hours = (Date.parse(channels.find((channel) => channel.id === id)!.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(1.5);
    expect(hours).toBeLessThanOrEqual(2);
    const table = await cli(['channels']);
    expect(table.stdout).toMatch(/^ID\s+ITEMS\s+EXPIRES\s+TITLE\s+FEED\n/);
    expect(table.stdout).toMatch(new RegExp(`^${id}\\s+2\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+Deploys\\s+${feedUrl}$`, 'm'));
    expect(table.stdout).not.toContain(token);

    // A wrong token, an unknown channel: the server's answer in one line.
    await failsWith(['channels', 'post', id!, '--token', 'wrong-token', '--title', 'x'], /./);
    await failsWith(['channels', 'delete', id!, '--token', 'wrong-token'], /./);
    await failsWith(['channels', 'post', 'nosuchchannel', '--token', token!, '--title', 'x'], /./);

    const deleted = await cli(['channels', 'delete', id!, '--token', token!]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe(`deleted channel ${id}\n`);
    expect((await fetch(feedUrl!)).status).toBe(404);
    expect((await json<Channel[]>(['channels', 'list'])).map((channel) => channel.id)).not.toContain(id);
    await failsWith(['channels', 'delete', id!, '--token', token!], /./);
  });

  it('channels create --json gives the spec’s fields; a ttl outside 1-720 is clamped and said so', async () => {
    const created = await json<Created>(['channels', 'create', '--title', 'Scripted']);
    expect(Object.keys(created).sort()).toEqual(['expires_at', 'feed_url', 'id', 'write_token']);
    const hours = (Date.parse(created.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(167);
    expect(hours).toBeLessThanOrEqual(168);

    for (const [given, clampedTo] of [
      ['0', 1],
      ['-5', 1],
      ['10000', 720],
    ] as const) {
      const result = await cli(['channels', 'create', '--title', `ttl ${given}`, '--ttl-hours', given]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(`(--ttl-hours ${given} is outside 1-720: clamped)`);
      const id = /^created channel (\S+)/m.exec(result.stdout)![1];
      const channel = (await json<Channel[]>(['channels', 'list'])).find((item) => item.id === id)!;
      const hoursLeft = (Date.parse(channel.expiresAt) - Date.now()) / 3_600_000;
      expect(hoursLeft).toBeGreaterThan(clampedTo - 0.5);
      expect(hoursLeft).toBeLessThanOrEqual(clampedTo);
    }
  });

  it('a title with escape sequences reaches the terminal as text: no control character in what the CLI prints', async () => {
    const hostile = 'Evil\u001b]0;pwned\u0007 \u001b[2Jtitle\u202e';
    const created = await cli(['channels', 'create', '--title', hostile]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^created channel \S+ "Evil title"$/m);
    const id = /^created channel (\S+)/m.exec(created.stdout)![1];
    const table = await cli(['channels', 'list']);
    expect(table.stdout).toMatch(new RegExp(`^${id}\\s+0\\s+.*Evil title`, 'm'));
    for (const output of [created.stdout, table.stdout]) expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
  });
});
