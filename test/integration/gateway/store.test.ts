// The gateway's tables migrate on every database the gateway runs on, next to the reader's in one
// database (each keeps its own migrations table), and a second open finds them current.
import {afterAll, describe, expect, it} from 'vitest';
import {openGatewayStore} from '../../../source/gateway/store/index.js';
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
});
