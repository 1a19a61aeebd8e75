// WebSub subscriptions are kept alike on every database the gateway runs on: one row per topic ×
// callback (long URLs included, which MySQL cannot index directly), renewed in place, expired by lease.
import {afterAll, describe, expect, it} from 'vitest';
import {openGatewayStore} from '../../../source/gateway/store/index.js';
import {activeSubscriptions, purgeExpiredSubscriptions, removeSubscription, saveSubscription, subscribersOf} from '../../../source/gateway/store/subscription-rows.js';
import {testDatabases} from '../../helpers/test-databases.js';

const databases = await testDatabases();
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

describe.each(databases.map((database) => [database.kind, database] as const))('subscription rows on %s', (_kind, database) => {
  it.skipIf(database.unavailable !== null)('saves, renews, lists by topic, expires and removes', async () => {
    const {connection, drop} = await database.create();
    drops.push(drop);
    const store = await openGatewayStore(connection);
    try {
      const topic = 'http://127.0.0.1:7701/news';
      const long = `https://hooks.example/${'a'.repeat(2000)}`;
      await saveSubscription(store.db, {topic, callback: long, secret: null, leaseSeconds: 60}, 1_000);
      await saveSubscription(store.db, {topic: `${topic}?format=atom`, callback: 'https://hooks.example/B', secret: 'k', leaseSeconds: 600}, 1_000);
      // The same pair again, at the same instant and then later: one row, the newer lease and secret.
      await saveSubscription(store.db, {topic, callback: long, secret: null, leaseSeconds: 60}, 1_000);
      await saveSubscription(store.db, {topic, callback: long, secret: 's', leaseSeconds: 120}, 5_000);
      expect(await subscribersOf(store.db, [topic], 6_000)).toEqual([{topic, callback: long, secret: 's', leaseSeconds: 120, expiresAt: 125_000, createdAt: 1_000}]);
      // Callbacks compare byte for byte (MySQL's default collation would not).
      expect(await removeSubscription(store.db, `${topic}?format=atom`, 'https://hooks.example/b')).toBe(false);
      expect((await subscribersOf(store.db, [topic, `${topic}?format=atom`], 6_000)).map((row) => row.callback)).toEqual([long, 'https://hooks.example/B']);
      expect((await activeSubscriptions(store.db, 200_000)).map((row) => row.callback)).toEqual(['https://hooks.example/B']);
      expect(await purgeExpiredSubscriptions(store.db, 200_000)).toBe(1);
      expect(await removeSubscription(store.db, `${topic}?format=atom`, 'https://hooks.example/B')).toBe(true);
      expect(await activeSubscriptions(store.db, 0)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
