// The gateway's tables migrate on every database the gateway runs on, next to the reader's in one
// database (each keeps its own migrations table), and a second open finds them current; origin
// items keep their enclosures and categories, and validators from before that are forgotten.
import {afterAll, describe, expect, it} from 'vitest';
import {openGatewayStore} from '../../../source/gateway/store/index.js';
import {findOrigin, saveOrigin, type OriginRecord} from '../../../source/gateway/store/origin-rows.js';
import {emptyRecord} from '../../../source/gateway/origins/poll-origin.js';
import {openStore} from '../../../source/feeds/store/index.js';
import {testDatabases} from '../../helpers/test-databases.js';

const databases = await testDatabases();
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

describe.each(databases.map((database) => [database.kind, database] as const))('gateway store on %s', (_kind, database) => {
  it.skipIf(database.unavailable !== null)('creates its tables beside the reader’s, and reopens without migrating again', async () => {
    const {connection, drop} = await database.create();
    drops.push(drop);
    const reader = await openStore(connection);
    await reader.close();
    const store = await openGatewayStore(connection);
    try {
      for (const table of ['gateway_channels', 'gateway_channel_items', 'gateway_origins', 'gateway_subscriptions']) expect(await store.db.schema.hasTable(table)).toBe(true);
      expect(await store.db.schema.hasTable('feeds')).toBe(true);
      await store.db('gateway_channels').insert({id: 'Abc', title: 't', token_hash: 'h'.repeat(64), created_at: 1, expires_at: 2});
      // Ids compare byte for byte on every database (MySQL's default collation would not).
      expect(await store.db('gateway_channels').where('id', 'abc').first()).toBeUndefined();
    } finally {
      await store.close();
    }
    const again = await openGatewayStore(connection);
    expect(await again.db('gateway_migrations').count({n: '*'})).toEqual([{n: expect.anything()}]);
    expect(Number((await again.db('gateway_channels').count({n: '*'}))[0]!.n)).toBe(1);
    await again.close();
  });

  it.skipIf(database.unavailable !== null)('keeps enclosures and categories in the copy, and forgets validators taken before it did', async () => {
    const {connection, drop} = await database.create();
    drops.push(drop);
    const store = await openGatewayStore(connection);
    const item = {
      id: 'ep-1',
      title: 'Episode',
      link: null,
      description: null,
      author: null,
      published: 1,
      enclosures: [{url: 'https://cdn.example/ep.mp3', type: 'audio/mpeg', length: 2_147_483_648_000, durationSeconds: 3723}],
      categories: ['a < b', 'c & d'],
    };
    try {
      await saveOrigin(store.db, {...emptyOrigin, items: [item], etag: '"v1"', lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT', version: 'v'.repeat(64)});
      expect((await findOrigin(store.db, 'news'))?.items).toEqual([item]);
      // A database the previous release migrated: 002 not run yet.
      await store.db('gateway_migrations').where('name', '002_origin_item_media').delete();
    } finally {
      await store.close();
    }
    const again = await openGatewayStore(connection);
    try {
      const record = await findOrigin(again.db, 'news');
      expect({etag: record?.etag, lastModified: record?.lastModified, version: record?.version, items: record?.items}).toEqual({
        etag: null,
        lastModified: null,
        version: 'v'.repeat(64),
        items: [item],
      });
    } finally {
      await again.close();
    }
  });
});

const emptyOrigin: OriginRecord = emptyRecord({name: 'news', origin: 'https://origin.example/feed.xml'});
