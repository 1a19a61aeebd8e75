import {afterEach, describe, expect, it} from 'vitest';
import {makePosts, startSocialNetwork, type SocialNetwork} from '../../../../fixtures/social/stand-in.js';
import {WorkbenchError} from '../../../../source/core/errors.js';
import {networkOf} from '../../../../source/feeds/ingestors/networks/index.js';
import type {IngestorKind} from '../../../../source/feeds/ingestors/types.js';

let network: SocialNetwork | undefined;
afterEach(async () => {
  await network?.close();
  network = undefined;
});

const request = (limit = 200) => ({limit, since: null});

function configFor(kind: IngestorKind, url: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  if (kind === 'kind_1') return {instance: url, hashtag: 'rust', ...extra};
  if (kind === 'kind_2') return {service: url, feed: 'at://did:plc:abc/app.bsky.feed.generator/rust', ...extra};
  return {base: url, subreddit: 'rust', ...extra};
}

function parse(kind: IngestorKind, config: Record<string, unknown>) {
  return networkOf(kind).configSchema.parse(config);
}

async function failure(promise: Promise<unknown>): Promise<WorkbenchError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WorkbenchError);
  return error as WorkbenchError;
}

describe('config validation', () => {
  it.each([
    ['kind_1', {instance: 'https://m.example', hashtag: 'rust', account: 'bob'}, /exactly one of account, hashtag, list/],
    ['kind_1', {instance: 'https://m.example'}, /exactly one of account, hashtag, list/],
    ['kind_1', {instance: 'ftp://m.example', hashtag: 'rust'}, /http\(s\) URL/],
    ['kind_1', {instance: 'https://m.example', list: '12'}, /give accessToken too/],
    ['kind_1', {instance: 'https://m.example', hashtag: 'rust', colour: 'red'}, /colour/],
    ['kind_2', {actor: 'alice.bsky.social', appPassword: 'x'}, /identifier and appPassword go together/],
    ['kind_2', {feed: 'https://bsky.app/feed'}, /feed generator AT URI/],
    ['kind_3', {subreddit: 'a b'}, /subreddit name/],
    ['kind_3', {subreddit: 'rust', sort: 'rising'}, /sort|new|hot|top/],
  ] as const)('%s refuses %j', (kind, config, message) => {
    const result = networkOf(kind).configSchema.safeParse(config);
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toMatch(message);
  });
});

describe.each(['kind_1', 'kind_2', 'kind_3'] as const)('%s against its stand-in', (kind) => {
  const name = ({kind_1: 'mastodon', kind_2: 'bluesky', kind_3: 'reddit'} as const)[kind];

  it('pages back to the limit, newest first, each status normalised', async () => {
    const posts = makePosts(300, {authors: ['alice']}).map((post) => ({...post, tags: ['rust']}));
    network = await startSocialNetwork({network: name, posts});
    const source = networkOf(kind);
    const outcome = await source.fetch(parse(kind, configFor(kind, network.url)), request(250));
    expect(outcome.statuses).toHaveLength(250);
    expect(outcome.requests).toBeGreaterThan(1);
    const times = outcome.statuses.map((status) => Date.parse(status.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    for (const status of outcome.statuses) {
      expect(status.key).toBeTruthy();
      expect(status.url).toMatch(/^https?:\/\//);
      expect(status.text.length).toBeGreaterThan(0);
    }
    const boosted = outcome.statuses.find((status) => status.repostedBy !== null);
    if (kind !== 'kind_3') expect(boosted?.repostedBy).toMatch(/zed/);
    const linked = outcome.statuses.find((status) => status.links.includes('https://example.org/article/0'));
    expect(linked).toBeDefined();
  });

  it('stops paging at statuses older than `since`', async () => {
    network = await startSocialNetwork({network: name, posts: makePosts(200, {authors: ['alice']}).map((post) => ({...post, tags: ['rust']}))});
    const since = makePosts(200)[20]!.createdAt;
    const outcome = await networkOf(kind).fetch(parse(kind, configFor(kind, network.url)), {limit: 1000, since});
    expect(outcome.statuses.length).toBeLessThan(200);
    expect(outcome.statuses.length).toBeGreaterThanOrEqual(21);
  });

  it('a 429 with Retry-After is a rate limit the cycle can wait out', async () => {
    network = await startSocialNetwork({network: name, posts: makePosts(5)});
    network.fault({status: 429, retryAfter: 120});
    const error = await failure(networkOf(kind).fetch(parse(kind, configFor(kind, network.url)), request()));
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toMatch(/rate limited .*retry after 120 s/);
    expect((error.details as {rateLimit: {retryAfterSeconds: number}}).rateLimit.retryAfterSeconds).toBe(120);
  });

  it('a 500, an HTML page and garbage are named, never a crash', async () => {
    network = await startSocialNetwork({network: name, posts: makePosts(5)});
    const config = parse(kind, configFor(kind, network.url));
    network.fault({status: 500});
    expect((await failure(networkOf(kind).fetch(config, request()))).message).toMatch(/answered 500/);
    network.fault({status: 200, body: '<html><body>Welcome</body></html>', contentType: 'text/html'});
    expect((await failure(networkOf(kind).fetch(config, request()))).message).toMatch(/an HTML page, not the API's JSON/);
    network.fault({status: 200, body: '{"statuses": 12}'});
    expect((await failure(networkOf(kind).fetch(config, request()))).code).toBe('not_a_feed');
  });

  it('reads the rate-limit headers of its family', async () => {
    network = await startSocialNetwork({
      network: name,
      posts: makePosts(5, {authors: ['alice']}).map((post) => ({...post, tags: ['rust']})),
      rateLimit: {limit: 300, remaining: 7, reset: 600},
    });
    const outcome = await networkOf(kind).fetch(parse(kind, configFor(kind, network.url)), request());
    expect(outcome.rateLimit?.remaining).toBe(7);
    expect(Date.parse(outcome.rateLimit!.resetAt!)).toBeGreaterThan(Date.now() + 500_000);
  });
});

describe('credentials', () => {
  it('Mastodon: a refused token names the field, never the token', async () => {
    network = await startSocialNetwork({network: 'mastodon', posts: makePosts(5), token: 'right-token'});
    const error = await failure(networkOf('kind_1').fetch(parse('kind_1', {instance: network.url, list: '1', accessToken: 'wrong-token-123'}), request()));
    expect(error.code).toBe('unauthorized');
    expect(error.message).toMatch(/accessToken/);
    expect(error.message).not.toContain('wrong-token-123');
    const outcome = await networkOf('kind_1').fetch(parse('kind_1', {instance: network.url, list: '1', accessToken: 'right-token'}), request());
    expect(outcome.statuses).toHaveLength(5);
    expect(network.requests.at(-1)!.authorization).toBe('Bearer right-token');
  });

  it('Bluesky: an app password opens a session whose token the feed calls carry', async () => {
    network = await startSocialNetwork({network: 'bluesky', posts: makePosts(5, {authors: ['alice']}), token: 'app-pass-1234'});
    const config = parse('kind_2', {service: network.url, actor: 'alice.bsky.social', identifier: 'me.bsky.social', appPassword: 'app-pass-1234'});
    const outcome = await networkOf('kind_2').fetch(config, request());
    expect(outcome.statuses.length).toBeGreaterThan(0);
    expect(network.requests[0]!.path).toBe('/xrpc/com.atproto.server.createSession');
    const refused = await failure(networkOf('kind_2').fetch({...config, appPassword: 'nope-5678'}, request()));
    expect(refused.message).toMatch(/appPassword/);
    expect(refused.message).not.toContain('nope-5678');
  });

  it('Reddit: client credentials are exchanged for a bearer token; deleted posts are marked', async () => {
    const posts = makePosts(5);
    posts[1]!.deleted = true;
    network = await startSocialNetwork({network: 'reddit', posts, token: 'sekrit-9'});
    const config = parse('kind_3', {base: network.url, oauthBase: network.url, subreddit: 'rust', clientId: 'client-id', clientSecret: 'sekrit-9'});
    const outcome = await networkOf('kind_3').fetch(config, request());
    expect(outcome.statuses).toHaveLength(5);
    expect(outcome.statuses.filter((status) => status.deleted)).toHaveLength(1);
    expect(network.requests.at(-1)!.authorization).toBe('Bearer reddit-access');
  });
});

describe('where it may connect', () => {
  it('never reaches a link-local or metadata address, whatever the config says', async () => {
    const error = await failure(networkOf('kind_1').fetch(parse('kind_1', {instance: 'http://169.254.169.254', hashtag: 'rust'}), request()));
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toMatch(/link-local|metadata|refused|not allowed/i);
  });
});

describe('normalising', () => {
  it('Mastodon: a boost is the original post, boosted by someone; edits carry edited_at', async () => {
    const posts = makePosts(12, {authors: ['alice']}).map((post) => ({...post, tags: ['rust']}));
    network = await startSocialNetwork({network: 'mastodon', posts});
    network.edit(12, 'Post 12 edited');
    const outcome = await networkOf('kind_1').fetch(parse('kind_1', {instance: network.url, hashtag: 'rust'}), request());
    const boost = outcome.statuses.find((status) => status.repostedBy === 'zed')!;
    expect(boost.author.handle).toBe('alice');
    expect(boost.key).not.toContain('/activity');
    const edited = outcome.statuses.find((status) => status.text.startsWith('Post 12 edited'))!;
    expect(edited.editedAt).not.toBeNull();
    expect(outcome.statuses[0]!.tags).toContain('rust');
  });
});
