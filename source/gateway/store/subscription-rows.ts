import {createHash} from 'node:crypto';
import type {Knex} from 'knex';
import {isUniqueViolation, millis} from '../../storage/index.js';

/** A verified WebSub subscription (gateway_subscriptions), one per hub.topic × hub.callback. */
export interface SubscriptionRow {
  topic: string;
  callback: string;
  /** hub.secret as given: deliveries are signed with it (HMAC), so it cannot be hashed. */
  secret: string | null;
  leaseSeconds: number;
  expiresAt: number;
  createdAt: number;
}

export interface NewSubscription {
  topic: string;
  callback: string;
  secret: string | null;
  leaseSeconds: number;
}

// The unique key is on hashes: MySQL cannot index URLs of up to 2 KB.
function urlHash(url: string): string {
  return createHash('sha256').update(url).digest('hex');
}

interface StoredRow {
  topic: string;
  callback: string;
  secret: string | null;
  lease_seconds: number | string;
  expires_at: number | string;
  created_at: number | string;
}

function rowOf(row: StoredRow): SubscriptionRow {
  return {
    topic: row.topic,
    callback: row.callback,
    secret: row.secret ?? null,
    leaseSeconds: Number(row.lease_seconds),
    expiresAt: millis(row.expires_at) ?? 0,
    createdAt: millis(row.created_at) ?? 0,
  };
}

const COLUMNS = ['topic', 'callback', 'secret', 'lease_seconds', 'expires_at', 'created_at'];

/** Stores a verified subscription, or renews it (new lease and secret) when the pair is already subscribed. */
export async function saveSubscription(db: Knex, subscription: NewSubscription, now: number): Promise<void> {
  const key = {topic_hash: urlHash(subscription.topic), callback_hash: urlHash(subscription.callback)};
  const lease = {secret: subscription.secret, lease_seconds: subscription.leaseSeconds, expires_at: now + subscription.leaseSeconds * 1000};
  const renew = () => db('gateway_subscriptions').where(key).update(lease);
  if ((await renew()) > 0) return;
  try {
    await db('gateway_subscriptions').insert({...key, ...lease, topic: subscription.topic, callback: subscription.callback, created_at: now});
  } catch (error) {
    // Two verifications of the same pair finished together: the other one inserted it.
    if (!isUniqueViolation(error)) throw error;
    await renew();
  }
}

/** Removes a subscription; whether there was one. */
export async function removeSubscription(db: Knex, topic: string, callback: string): Promise<boolean> {
  return (
    (await db('gateway_subscriptions')
      .where({topic_hash: urlHash(topic), callback_hash: urlHash(callback)})
      .delete()) > 0
  );
}

/** The unexpired subscriptions to any of `topics`. */
export async function subscribersOf(db: Knex, topics: string[], now: number): Promise<SubscriptionRow[]> {
  if (topics.length === 0) return [];
  const rows = (await db('gateway_subscriptions').select(COLUMNS).whereIn('topic_hash', topics.map(urlHash)).andWhere('expires_at', '>', now).orderBy('id')) as StoredRow[];
  return rows.map(rowOf);
}

/** The unexpired subscriptions to every topic, oldest first. */
export async function activeSubscriptions(db: Knex, now: number): Promise<SubscriptionRow[]> {
  const rows = (await db('gateway_subscriptions').select(COLUMNS).where('expires_at', '>', now).orderBy('id')) as StoredRow[];
  return rows.map(rowOf);
}

/** Deletes subscriptions whose lease has run out; how many. */
export async function purgeExpiredSubscriptions(db: Knex, now: number): Promise<number> {
  return db('gateway_subscriptions').where('expires_at', '<=', now).delete();
}
