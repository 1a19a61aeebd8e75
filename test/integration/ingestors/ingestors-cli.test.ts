import type {ChildProcess} from 'node:child_process';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {makePosts, startSocialNetwork, type SocialNetwork} from '../../../fixtures/social/stand-in.js';
import {eventually, expectOneLineFailure, makeSandbox, runCli, runCliJson, spawnCli, type Sandbox} from '../../helpers/cli.js';

// `workbench ingestors …` as users run it: the built CLI, in-process on a private store and
// against `workbench serve reader`, with Mastodon's stand-in on 127.0.0.1.

let sandbox: Sandbox;
let network: SocialNetwork;
const TOKEN = 'tok-cli-secret-5150';
const cli = (args: string[], input?: string) => runCli(args, {env: sandbox.env, timeoutMs: 30_000, input});

interface IngestorJson {
  id: number;
  status: string;
  config: Record<string, unknown>;
  digestMode: string;
  llmEnabled: boolean;
  feedId: number;
}

beforeAll(async () => {
  sandbox = makeSandbox('wb-ingest-cli-');
  network = await startSocialNetwork({network: 'mastodon', posts: makePosts(25, {authors: ['alice', 'bob']}).map((post) => ({...post, tags: ['rust']})), token: TOKEN});
});
afterAll(async () => {
  await network?.close();
  await sandbox?.cleanup();
});

const json = <T>(args: string[], input?: string): Promise<T> => runCliJson<T>(args, {env: sandbox.env, timeoutMs: 30_000, input});
const failsWith = async (args: string[], pattern: RegExp) => expectOneLineFailure(await cli(args), pattern, args.join(' '));

describe('workbench ingestors', () => {
  it('adds with the token read from stdin, lists, tests with reasons, edits and removes', async () => {
    const config = JSON.stringify({instance: network.url, list: '1'});
    const made = await json<IngestorJson>(['ingestors', 'add', 'mastodon', '--config', config, '--secret-stdin', 'accessToken', '--threshold', '0.5'], `${TOKEN}\n`);
    expect(made.config.accessToken).toBe('[redacted]');

    const listed = await cli(['ingestors', 'list']);
    expect(listed.stdout).toMatch(/1\s+kind_1 mastodon\s+pending\s+realtime\s+0\.5\s+off/);
    expect(listed.stdout).not.toContain(TOKEN);

    const tested = await cli(['ingestors', 'test', String(made.id)]);
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/^fetched 25 · kept \d+ · dropped \d+ · model off/);
    expect(tested.stdout).toMatch(/\n {2}0\.\d\d {2}@(alice|bob) {2}Post \d+/);
    expect(tested.stdout).toMatch(/\n {10}[+−]\d\.\d\d engagement [\d.]+× this author's usual/);
    expect(network.requests.at(-1)!.authorization).toBe(`Bearer ${TOKEN}`);

    // A new config keeps the stored token; the fields change as asked.
    const changed = await json<IngestorJson>([
      'ingestors',
      'edit',
      String(made.id),
      '--digest',
      'daily',
      '--llm',
      'on',
      '--config',
      JSON.stringify({instance: network.url, list: '2'}),
    ]);
    expect(changed).toMatchObject({digestMode: 'daily', llmEnabled: true});
    expect(changed.config).toMatchObject({list: '2', accessToken: '[redacted]'});
    const retested = await json<{fetched: number}>(['ingestors', 'test', String(made.id)]);
    expect(retested.fetched).toBe(25);

    const removed = await cli(['ingestors', 'remove', String(made.id)]);
    expect(removed.stdout).toMatch(/removed ingestor 1 ".+" and its feed 1/);
    expect((await json<unknown[]>(['ingestors', 'list'])).length).toBe(0);
  }, 120_000); // many CLI runs one after another: a bound for a loaded machine, not a figure

  it('tests a definition given on the command line', async () => {
    const result = await json<{fetched: number; kept: unknown[]; dropped: unknown[]}>([
      'ingestors',
      'test',
      'kind_1',
      '--config',
      JSON.stringify({instance: network.url, list: '1', accessToken: TOKEN}),
    ]);
    expect(result.fetched).toBe(25);
  });

  it('refuses garbage in one line', async () => {
    await failsWith(['ingestors', 'add', 'myspace', '--config', '{}'], /kind must be kind_1 \(Mastodon\), kind_2 \(Bluesky\) or kind_3 \(Reddit\)/);
    await failsWith(['ingestors', 'add', 'mastodon', '--config', '{nope'], /--config is not JSON/);
    await failsWith(['ingestors', 'add', 'mastodon'], /give the config/);
    await failsWith(['ingestors', 'add', 'mastodon', '--config', '{"instance": "https://m.example"}'], /exactly one of account, hashtag, list/);
    await failsWith(['ingestors', 'add', 'mastodon', '--config', '{"instance": "https://m.example", "hashtag": "x"}', '--threshold', 'high'], /--threshold takes a number/);
    await failsWith(
      ['ingestors', 'add', 'mastodon', '--config', '{"instance": "https://m.example", "hashtag": "x"}', '--digest', 'weekly'],
      /digestMode must be realtime, hourly or daily/,
    );
    await failsWith(['ingestors', 'add', 'mastodon', '--config', '{"instance": "https://m.example", "hashtag": "x"}', '--llm', 'maybe'], /--llm takes on or off/);
    await failsWith(['ingestors', 'edit', '42', '--interval', '5'], /no ingestor 42/);
    await failsWith(['ingestors', 'edit', 'x1'], /ingestor id/);
    await failsWith(['ingestors', 'remove', '0'], /ingestor id must be 1 or more/);
    await failsWith(['ingestors', 'test', '7'], /no ingestor 7/);
  }, 120_000); // many CLI runs one after another: a bound for a loaded machine, not a figure
});

describe('workbench ingestors against serve reader', () => {
  let server: ChildProcess | undefined;
  afterAll(() => {
    if (server && server.exitCode === null) server.kill('SIGKILL');
  });

  it('does the same over HTTP, and the server’s scheduler runs the ingestor into its feed', async () => {
    server = spawnCli(['serve', 'reader', '--port', '0'], {env: sandbox.env});
    let stdout = '';
    server.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const url = await eventually(() => /^reader listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout)?.[1], 20_000, 50);
    const made = await json<IngestorJson>([
      'ingestors',
      'add',
      'kind_1',
      '--config',
      JSON.stringify({instance: network.url, list: '1', accessToken: TOKEN}),
      '--threshold',
      '0',
      '--server',
      url,
    ]);
    // The scheduler's first round runs it (a new ingestor is due at once).
    const feed = await eventually(async () => {
      const feeds = await json<Array<{id: number; unreadCount: number; fetchStatus: string}>>(['feeds', 'list', '--server', url]);
      const found = feeds.find((item) => item.id === made.feedId);
      return found && found.unreadCount === 25 ? found : undefined;
    }, 20_000);
    expect(feed.fetchStatus).toBe('ok');
    const listed = await json<IngestorJson[]>(['ingestors', 'list']);
    expect(listed[0]!.status).toBe('ok');
    server.kill('SIGTERM');
  });
});
