// Ephemeral channels (spec 2, part B) through createChannels on every database the gateway runs on:
// creation and its limits, the write token (never stored in clear), posting with its statuses,
// 100 concurrent posts, the channel as a feed document, expiry and the purge.
import {createHash} from 'node:crypto';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {CHANNEL_FEED_ITEMS, createChannels, type Channels} from '../../../source/gateway/channels/index.js';
import {openGatewayStore} from '../../../source/gateway/store/index.js';
import {CHANNEL_ITEM_MAX_BYTES, FEED_NAME_PATTERN, type NewChannel, type NewChannelItem} from '../../../source/gateway/types.js';
import type {Store} from '../../../source/storage/index.js';
import {testDatabases} from '../../helpers/test-databases.js';

const databases = await testDatabases();
const HOUR = 3_600_000;
const START = Date.parse('2026-11-20T10:00:00.000Z');
const BASE = 'http://127.0.0.1:7701';

/** The code of the WorkbenchError a call rejects with. */
async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as {code?: string}).code ?? String(error);
  }
  return 'resolved';
}

// Garbage from outside arrives untyped: the logic must refuse it however the type says it looks.
const garbage = <T>(value: unknown) => value as T;

for (const database of databases) {
  describe.skipIf(database.unavailable !== null)(`channels on ${database.kind}`, () => {
    let created: {connection: string; drop(): Promise<void>};
    let store: Store;
    let clock = START;
    const changes: string[] = [];
    let channels: Channels;

    beforeAll(async () => {
      created = await database.create();
      store = await openGatewayStore(created.connection);
      channels = createChannels({store, baseUrl: () => BASE, now: () => clock, onChange: (id) => changes.push(id)});
    });
    afterAll(async () => {
      await store?.close();
      await created?.drop();
    });

    const itemCount = async (id: string) => Number((await store.db('gateway_channel_items').where('channel_id', id).count({n: '*'}))[0]!.n);

    it('creates a channel: an unguessable id, a 256-bit token shown once, its feed URL and expiry (168 h by default)', async () => {
      const channel = await channels.create({title: 'Deploys', description: 'what shipped'});
      expect(channel.id).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(channel.id).toMatch(FEED_NAME_PATTERN);
      expect(Buffer.from(channel.write_token, 'base64url')).toHaveLength(32);
      expect(channel.feed_url).toBe(`${BASE}/${channel.id}`);
      expect(channel.expires_at).toBe(new Date(START + 168 * HOUR).toISOString());
      const other = await channels.create({title: 'Deploys'});
      expect(other.id).not.toBe(channel.id);
      expect(other.write_token).not.toBe(channel.write_token);
    });

    it('clamps ttl_hours to 1..720 and refuses what is not an integer', async () => {
      const expiry = async (ttlHours: number) => Date.parse((await channels.create({title: 't', ttlHours})).expires_at) - clock;
      expect(await expiry(0)).toBe(1 * HOUR);
      expect(await expiry(-5)).toBe(1 * HOUR);
      expect(await expiry(10_000)).toBe(720 * HOUR);
      expect(await expiry(24)).toBe(24 * HOUR);
      for (const ttlHours of ['abc', 1.5, '24', Number.NaN, Number.POSITIVE_INFINITY, true, {}]) {
        expect(await codeOf(channels.create({title: 't', ttlHours: garbage<number>(ttlHours)}))).toBe('invalid_body');
      }
    });

    it('refuses a missing, empty, non-string or too long title, a too long description, and a body that is not an object', async () => {
      for (const input of [
        {},
        {title: ''},
        {title: '   '},
        {title: 42},
        {title: null},
        {title: ['a']},
        {title: 'x'.repeat(201)},
        {title: 't', description: 'd'.repeat(2001)},
        {title: 't', description: 5},
      ]) {
        expect(await codeOf(channels.create(garbage<NewChannel>(input)))).toBe('invalid_body');
      }
      for (const input of [null, 'title', [], 42]) expect(await codeOf(channels.create(garbage<NewChannel>(input)))).toBe('invalid_body');
      expect(await codeOf(channels.create({title: 'x'.repeat(200), description: 'd'.repeat(2000)}))).toBe('resolved');
    });

    it('stores only a sha-256 of the write token, nowhere the token itself', async () => {
      const channel = await channels.create({title: 'Secret keeper'});
      await channels.post(channel.id, channel.write_token, {title: 'one'});
      const row = await store.db('gateway_channels').where('id', channel.id).first();
      expect(row.token_hash).toBe(createHash('sha256').update(channel.write_token).digest('hex'));
      const everything = JSON.stringify([await store.db('gateway_channels'), await store.db('gateway_channel_items')]);
      expect(everything).not.toContain(channel.write_token);
      expect(JSON.stringify(await channels.list())).not.toContain(channel.write_token);
      expect(JSON.stringify(await channels.list())).not.toContain(row.token_hash);
    });

    it('posts with the write token: 401 without one, 404 for an unknown channel, 403 for a wrong or another channel’s token', async () => {
      const channel = await channels.create({title: 'Auth'});
      const other = await channels.create({title: 'Other'});
      const item = {title: 'hello'};
      expect(await codeOf(channels.post(channel.id, undefined, item))).toBe('unauthorized');
      expect(await codeOf(channels.post(channel.id, '', item))).toBe('unauthorized');
      expect(await codeOf(channels.post(channel.id, 'wrong', item))).toBe('forbidden');
      expect(await codeOf(channels.post(channel.id, channel.write_token.slice(0, -1), item))).toBe('forbidden');
      expect(await codeOf(channels.post(channel.id, other.write_token, item))).toBe('forbidden');
      expect(await codeOf(channels.post('no-such-channel', channel.write_token, item))).toBe('not_found');
      expect(await codeOf(channels.post(channel.id.toLowerCase() === channel.id ? channel.id.toUpperCase() : channel.id.toLowerCase(), channel.write_token, item))).toBe(
        'not_found',
      );
      expect(await itemCount(channel.id)).toBe(0);
      expect(await codeOf(channels.post(channel.id, channel.write_token, item))).toBe('resolved');
      expect(await itemCount(channel.id)).toBe(1);
    });

    it('takes an item of exactly 64 KB (its JSON in UTF-8 bytes) and refuses one byte more with payload_too_large', async () => {
      const channel = await channels.create({title: 'Sizes'});
      // 'é' is two bytes in UTF-8: the size is counted in bytes, not characters.
      const base = Buffer.byteLength(JSON.stringify({title: 'big', description: ''}));
      const room = CHANNEL_ITEM_MAX_BYTES - base;
      const exact = {title: 'big', description: 'é'.repeat(Math.floor(room / 2)) + 'a'.repeat(room % 2)};
      expect(Buffer.byteLength(JSON.stringify(exact))).toBe(CHANNEL_ITEM_MAX_BYTES);
      expect(await codeOf(channels.post(channel.id, channel.write_token, exact))).toBe('resolved');
      const over = {...exact, description: `${exact.description}a`};
      expect(await codeOf(channels.post(channel.id, channel.write_token, over))).toBe('payload_too_large');
      expect(await itemCount(channel.id)).toBe(1);
      const stored = await store.db('gateway_channel_items').where('channel_id', channel.id).first();
      expect(stored.description).toBe(exact.description);
    });

    it('refuses an item without a title, with a link that is not http(s), or with fields of the wrong type', async () => {
      const channel = await channels.create({title: 'Bodies'});
      const bad: unknown[] = [
        null,
        'text',
        [],
        {},
        {title: ''},
        {title: ' \t'},
        {title: 7},
        {title: 'x', link: 'javascript:alert(1)'},
        {title: 'x', link: 'ftp://example.com/file'},
        {title: 'x', link: 'not a url'},
        {title: 'x', link: '/relative'},
        {title: 'x', link: 42},
        {title: 'x', description: {html: true}},
      ];
      for (const item of bad) expect(await codeOf(channels.post(channel.id, channel.write_token, garbage<NewChannelItem>(item)))).toBe('invalid_body');
      expect(await itemCount(channel.id)).toBe(0);
      await channels.post(channel.id, channel.write_token, {title: 'ok', link: 'https://example.com/a?b=1', description: 'text'});
      expect(await itemCount(channel.id)).toBe(1);
    });

    it('removes control characters and escape sequences from outside text before storing it, keeping newlines and tabs', async () => {
      const channel = await channels.create({title: 'Ti\x00tle\x1b]0;pwned\x07', description: 'line\x07 one\nline\ttwo'});
      await channels.post(channel.id, channel.write_token, {title: 'po\x1b[2Jst\x7f', description: 'a\x00b\nc\td\x1b]52;c;Zm9v\x07', link: 'https://example.com/x'});
      const row = await store.db('gateway_channels').where('id', channel.id).first();
      expect([row.title, row.description]).toEqual(['Title', 'line one\nline\ttwo']);
      const item = await store.db('gateway_channel_items').where('channel_id', channel.id).first();
      expect([item.title, item.description, item.link]).toEqual(['post', 'ab\nc\td', 'https://example.com/x']);
    });

    it('serves the channel as a feed document: newest first, versioned by content, updated at the last post, max-age 60', async () => {
      const channel = await channels.create({title: 'Feed', description: 'about'});
      const empty = await channels.document(channel.id);
      expect(empty).toMatchObject({
        kind: 'channel',
        name: channel.id,
        title: 'Feed',
        description: 'about',
        siteUrl: null,
        items: [],
        updatedAt: clock,
        maxAgeSeconds: 60,
        stale: false,
      });
      expect(empty!.version).toMatch(/^[0-9a-f]{64}$/);
      const createdAt = clock;
      clock += 1000;
      await channels.post(channel.id, channel.write_token, {title: 'first', link: 'https://example.com/1'});
      clock += 1000;
      await channels.post(channel.id, channel.write_token, {title: 'second', description: 'more'});
      const document = await channels.document(channel.id);
      expect(document!.items.map((item) => [item.title, item.link, item.description, item.published])).toEqual([
        ['second', null, 'more', createdAt + 2000],
        ['first', 'https://example.com/1', null, createdAt + 1000],
      ]);
      expect(new Set(document!.items.map((item) => item.id)).size).toBe(2);
      expect(document!.updatedAt).toBe(createdAt + 2000);
      expect(document!.version).not.toBe(empty!.version);
      // Cached until the next change: the same document, no database read.
      expect(await channels.document(channel.id)).toBe(document);
      await channels.post(channel.id, channel.write_token, {title: 'third'});
      const after = await channels.document(channel.id);
      expect(after!.items[0]!.title).toBe('third');
      expect(after!.version).not.toBe(document!.version);
      expect(await channels.document('no-such-channel')).toBeNull();
    });

    it(`serves the newest ${CHANNEL_FEED_ITEMS} items and keeps the older ones stored`, async () => {
      const channel = await channels.create({title: 'Long'});
      const total = CHANNEL_FEED_ITEMS + 20;
      for (let index = 0; index < total; index++) await channels.post(channel.id, channel.write_token, {title: `item ${index}`});
      const document = await channels.document(channel.id);
      expect(document!.items).toHaveLength(CHANNEL_FEED_ITEMS);
      expect(document!.items[0]!.title).toBe(`item ${total - 1}`);
      expect(document!.items.at(-1)!.title).toBe(`item ${total - CHANNEL_FEED_ITEMS}`);
      expect(await itemCount(channel.id)).toBe(total);
    });

    it('loses none of 100 concurrent posts and keeps them in order of time', async () => {
      const channel = await channels.create({title: 'Busy'});
      // Every post reads its own time: concurrent posts reach the clock in some order.
      let tick = clock;
      const racing = createChannels({store, baseUrl: () => BASE, now: () => tick++});
      await Promise.all(Array.from({length: 100}, (_, index) => racing.post(channel.id, channel.write_token, {title: `post ${index}`})));
      expect(await itemCount(channel.id)).toBe(100);
      const document = await racing.document(channel.id);
      expect(new Set(document!.items.map((item) => item.title))).toEqual(new Set(Array.from({length: 100}, (_, index) => `post ${index}`)));
      const seqs = document!.items.map((item) => Number(item.id.split(':')[1]));
      const times = document!.items.map((item) => item.published);
      expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(document!.updatedAt).toBe(times[0]);
    });

    it('tells onChange after every post and delete', async () => {
      const channel = await channels.create({title: 'Watched'});
      changes.length = 0;
      await channels.post(channel.id, channel.write_token, {title: 'a'});
      await channels.post(channel.id, channel.write_token, {title: 'b'});
      await channels.post(channel.id, 'wrong', {title: 'c'}).catch(() => {});
      await channels.remove(channel.id, channel.write_token);
      expect(changes).toEqual([channel.id, channel.id, channel.id]);
    });

    it('deletes a channel with its items under the token rules of a post', async () => {
      const channel = await channels.create({title: 'Doomed'});
      await channels.post(channel.id, channel.write_token, {title: 'a'});
      expect(await channels.document(channel.id)).not.toBeNull();
      expect(await codeOf(channels.remove(channel.id, undefined))).toBe('unauthorized');
      expect(await codeOf(channels.remove(channel.id, 'wrong'))).toBe('forbidden');
      expect(await codeOf(channels.remove('no-such-channel', channel.write_token))).toBe('not_found');
      await channels.remove(channel.id, channel.write_token);
      expect(await channels.document(channel.id)).toBeNull();
      expect(await store.db('gateway_channels').where('id', channel.id).first()).toBeUndefined();
      expect(await itemCount(channel.id)).toBe(0);
      expect(await codeOf(channels.remove(channel.id, channel.write_token))).toBe('not_found');
      expect(await codeOf(channels.post(channel.id, channel.write_token, {title: 'late'}))).toBe('not_found');
    });

    it('answers not_found to a post after another gateway on the same database deleted the channel', async () => {
      const channel = await channels.create({title: 'Shared'});
      await channels.post(channel.id, channel.write_token, {title: 'a'});
      const elsewhere = createChannels({store, baseUrl: () => BASE, now: () => clock});
      await elsewhere.remove(channel.id, channel.write_token);
      expect(await codeOf(channels.post(channel.id, channel.write_token, {title: 'b'}))).toBe('not_found');
      expect(await itemCount(channel.id)).toBe(0);
    });

    it('lists live channels with their item counts, never their tokens', async () => {
      const channel = await channels.create({title: 'Listed', description: 'here', ttlHours: 2});
      await channels.post(channel.id, channel.write_token, {title: 'a'});
      await channels.post(channel.id, channel.write_token, {title: 'b'});
      const summary = (await channels.list()).find((entry) => entry.id === channel.id);
      expect(summary).toEqual({
        id: channel.id,
        title: 'Listed',
        description: 'here',
        itemCount: 2,
        createdAt: new Date(clock).toISOString(),
        expiresAt: channel.expires_at,
        feedUrl: channel.feed_url,
      });
    });

    it('answers not_found for an expired channel, and the purge deletes expired channels with their items', async () => {
      clock += 1000 * HOUR; // every channel so far has expired (720 h at most)
      await channels.purgeExpired();
      const short = await channels.create({title: 'Short', ttlHours: 1});
      const long = await channels.create({title: 'Long', ttlHours: 48});
      await channels.post(short.id, short.write_token, {title: 'a'});
      await channels.post(long.id, long.write_token, {title: 'b'});
      expect(await channels.document(short.id)).not.toBeNull(); // cached before it expires
      clock += HOUR; // time reaches expires_at
      expect(await channels.document(short.id)).toBeNull();
      expect(await codeOf(channels.post(short.id, short.write_token, {title: 'late'}))).toBe('not_found');
      expect(await codeOf(channels.remove(short.id, short.write_token))).toBe('not_found');
      expect((await channels.list()).map((entry) => entry.id)).toEqual([long.id]);
      expect(await itemCount(short.id)).toBe(1); // stored until purged
      expect(await channels.purgeExpired()).toBe(1);
      expect(await store.db('gateway_channels').where('id', short.id).first()).toBeUndefined();
      expect(await itemCount(short.id)).toBe(0);
      expect(await itemCount(long.id)).toBe(1);
      expect(await channels.purgeExpired()).toBe(0);
      expect(await channels.document(long.id)).not.toBeNull();
    });
  });
}
