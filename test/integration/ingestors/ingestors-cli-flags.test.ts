import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {makePosts, startSocialNetwork, type SocialNetwork} from '../../../fixtures/social/stand-in.js';
import {makeSandbox, runCli, type Sandbox} from '../../helpers/cli.js';

// `workbench ingestors add|edit|test` with the config given field by field (--set) and the
// credential from a file (--secret field=@file): the built CLI in-process on a private store,
// Mastodon's stand-in on 127.0.0.1.

let sandbox: Sandbox;
let network: SocialNetwork;
const TOKEN = 'tok-file-secret-2718';
const cli = (args: string[]) => runCli(args, {env: sandbox.env, timeoutMs: 30_000});

beforeAll(async () => {
  sandbox = makeSandbox('wb-ingest-flags-');
  network = await startSocialNetwork({network: 'mastodon', posts: makePosts(8, {authors: ['alice']}).map((post) => ({...post, tags: ['rust']})), token: TOKEN});
});
afterAll(async () => {
  await network?.close();
  await sandbox?.cleanup();
});

async function json<T>(args: string[]): Promise<T> {
  const result = await cli([...args, '--json']);
  if (result.code !== 0) throw new Error(`workbench ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

async function failsWith(args: string[], pattern: RegExp): Promise<void> {
  const result = await cli(args);
  expect(result.code, `${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(1);
  expect(result.stderr).toMatch(/^workbench: .+\n$/);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toContain(TOKEN);
}

describe('workbench ingestors: --set and --secret', () => {
  it('adds field by field with the token from a file, edits one field and keeps the token', async () => {
    // `~/` is the user's home (HOME), as the shell does not expand it after `=@`.
    writeFileSync(join(sandbox.env.HOME!, 'mastodon-token'), `${TOKEN}\n`, {mode: 0o600});
    const made = await json<{id: number; config: Record<string, unknown>}>([
      'ingestors',
      'add',
      'mastodon',
      '--set',
      `instance=${network.url}`,
      '--set',
      'list=1',
      '--set',
      'maxStatuses:=5',
      '--set',
      'scoring:={"keywords": {"rust": 2}}',
      '--secret',
      'accessToken=@~/mastodon-token',
    ]);
    expect(made.config).toEqual({instance: network.url, list: '1', maxStatuses: 5, scoring: {keywords: {rust: 2}}, accessToken: '[redacted]'});

    const tested = await json<{fetched: number}>(['ingestors', 'test', String(made.id)]);
    expect(tested.fetched).toBe(5);
    expect(network.requests.at(-1)!.authorization).toBe(`Bearer ${TOKEN}`);

    const changed = await json<{config: Record<string, unknown>}>(['ingestors', 'edit', String(made.id), '--set', 'list=2']);
    expect(changed.config).toMatchObject({list: '2', maxStatuses: 5, accessToken: '[redacted]'});
    await json(['ingestors', 'test', String(made.id)]);
    expect(network.requests.at(-1)).toMatchObject({authorization: `Bearer ${TOKEN}`});
    expect(network.requests.at(-1)!.path).toBe('/api/v1/timelines/list/2');

    const listed = await cli(['ingestors', 'list']);
    expect(listed.stdout).not.toContain(TOKEN);
  });

  it('refuses a bad --set or --secret in one line, never echoing a credential', async () => {
    const base = ['ingestors', 'add', 'mastodon', '--set', `instance=${network.url}`, '--set', 'hashtag=rust'];
    await failsWith([...base, '--set', 'nofield'], /--set takes field=value or field:=JSON/);
    await failsWith([...base, '--set', '__proto__=x'], /--set takes field=value/);
    await failsWith([...base, '--set', 'maxStatuses:={oops'], /--set maxStatuses:= takes JSON/);
    await failsWith([...base, '--secret', `accessToken=${TOKEN}`], /--secret accessToken= takes @file .*--secret-stdin accessToken/);
    await failsWith([...base, '--secret', 'accessToken=@/nonexistent/token'], /--secret accessToken: cannot read \/nonexistent\/token \(ENOENT\)/);
    await failsWith([...base, '--secret', '@token'], /--secret takes field=@file/);
    await failsWith([...base, '--set', 'maxStatuses:="many"'], /config\.maxStatuses must be a whole number/);
    await failsWith(['ingestors', 'add', 'mastodon'], /give the config: .*--set/);
    await failsWith(['ingestors', 'edit', '1'], /nothing to change: .*--set or --secret/);
  }, 120_000); // many CLI runs one after another: a bound for a loaded machine, not a figure
});
