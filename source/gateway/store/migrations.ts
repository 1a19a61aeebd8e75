import type {Knex} from 'knex';
import type {Dialect} from '../../storage/index.js';
import {exact, migrationSource, type Migration} from '../../storage/migrations.js';

// Times are BIGINT milliseconds since the epoch, as in the reader's store.

const gatewayTables: Migration = {
  name: '001_gateway_tables',
  async up(db, dialect) {
    const longText = dialect === 'mysql' ? 'longtext' : 'text';
    // A channel: its id is the unguessable path it is served at; only a hash of its write token is kept.
    await db.schema.createTable('gateway_channels', (table) => {
      exact(table.string('id', 64), dialect).primary();
      table.text('title').notNullable();
      table.text('description');
      exact(table.string('token_hash', 64), dialect).notNullable();
      table.bigInteger('created_at').notNullable();
      table.bigInteger('expires_at').notNullable();
      table.index(['expires_at'], 'gateway_channels_expires');
    });
    // Posted items in the order they were taken (seq), newest served first.
    await db.schema.createTable('gateway_channel_items', (table) => {
      table.bigIncrements('seq');
      exact(table.string('channel_id', 64), dialect).notNullable().references('id').inTable('gateway_channels').onDelete('CASCADE');
      table.text('title').notNullable();
      table.text('link');
      table.specificType('description', longText);
      table.bigInteger('created_at').notNullable();
      table.index(['channel_id', 'seq'], 'gateway_channel_items_channel');
    });
    // The last good copy of each proxied feed's origin and its poll status (name as in the config).
    await db.schema.createTable('gateway_origins', (table) => {
      exact(table.string('name', 64), dialect).primary();
      table.text('origin').notNullable();
      table.text('etag');
      table.text('last_modified');
      table.text('title');
      table.text('description');
      table.text('site_url');
      // FeedItem[] as JSON, newest first; null until the first good poll.
      table.specificType('items', longText);
      exact(table.string('version', 64), dialect);
      table.bigInteger('updated_at');
      table.bigInteger('last_success_at');
      table.bigInteger('last_failure_at');
      table.text('last_error');
      table.bigInteger('next_poll_at');
      // The origin failed since the last good poll.
      table.boolean('stale').notNullable().defaultTo(false);
      // No fetch before this (the origin's Retry-After).
      table.bigInteger('retry_after_until');
    });
    // WebSub subscriptions (hub.topic × hub.callback), verified before they count.
    await db.schema.createTable('gateway_subscriptions', (table) => {
      table.increments('id');
      table.text('topic').notNullable();
      table.text('callback').notNullable();
      // Hashes carry uniqueness: MySQL cannot index long URLs.
      exact(table.string('topic_hash', 64), dialect).notNullable();
      exact(table.string('callback_hash', 64), dialect).notNullable();
      // hub.secret signs deliveries (HMAC), so it is kept as given; the store file is 0600.
      table.text('secret');
      table.integer('lease_seconds').notNullable();
      table.bigInteger('expires_at').notNullable();
      table.bigInteger('created_at').notNullable();
      table.unique(['topic_hash', 'callback_hash'], {indexName: 'gateway_subscriptions_unique'});
      table.index(['topic_hash', 'expires_at'], 'gateway_subscriptions_topic');
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('gateway_subscriptions');
    await db.schema.dropTableIfExists('gateway_origins');
    await db.schema.dropTableIfExists('gateway_channel_items');
    await db.schema.dropTableIfExists('gateway_channels');
  },
};

/**
 * Origin items now keep their enclosures and categories (in the items JSON, so no column changes).
 * A copy taken before has neither, and its validators would have the origin answer 304 for as long
 * as the feed is unchanged, so the copy would never get them: forgetting the validators makes the
 * next poll of each origin a full fetch. The copy itself stays served until then.
 */
const originItemMedia: Migration = {
  name: '002_origin_item_media',
  async up(db) {
    await db('gateway_origins').update({etag: null, last_modified: null});
  },
  // Validators are a cache: there is nothing to restore.
  async down() {},
};

const MIGRATIONS: Migration[] = [gatewayTables, originItemMedia];

/** knex's migration source interface over the migrations above, for migrate.latest(). */
export function gatewayMigrations(dialect: Dialect): Knex.MigrationSource<Migration> {
  return migrationSource(MIGRATIONS, dialect);
}
