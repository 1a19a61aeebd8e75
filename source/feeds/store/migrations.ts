import type {Knex} from 'knex';
import type {Dialect} from '../../storage/connection.js';
import {exact, migrationSource, type Migration} from '../../storage/migrations.js';

// Times are BIGINT milliseconds since the epoch on every database: integers order the same
// everywhere, with no time-zone or precision differences between DATETIME types.

const readerTables: Migration = {
  name: '001_reader_tables',
  async up(db, dialect) {
    const longText = dialect === 'mysql' ? 'mediumtext' : 'text';
    await db.schema.createTable('feeds', (table) => {
      table.increments('id');
      table.text('url').notNullable();
      // MySQL cannot index a long URL; a SHA-256 of it carries the uniqueness on every database.
      table.string('url_hash', 64).notNullable().unique({indexName: 'feeds_url_hash_unique'});
      table.text('title').notNullable();
      table.text('site_url');
      table.string('category', 200);
      table.text('etag');
      table.text('last_modified');
      table.string('fetch_status', 16).notNullable().defaultTo('pending');
      table.text('last_error');
      table.bigInteger('last_fetched_at');
      table.bigInteger('last_success_at');
      table.bigInteger('next_fetch_at');
      table.integer('interval_minutes').notNullable().defaultTo(60);
      table.integer('consecutive_failures').notNullable().defaultTo(0);
      table.bigInteger('created_at').notNullable();
      table.index(['next_fetch_at'], 'feeds_due');
    });
    await db.schema.createTable('articles', (table) => {
      table.increments('id');
      table.integer('feed_id').unsigned().notNullable().references('id').inTable('feeds').onDelete('CASCADE');
      exact(table.string('item_key', 255).notNullable(), dialect);
      table.text('title').notNullable();
      table.text('link');
      table.text('author');
      table.bigInteger('published_at');
      // published_at, else when first seen; never in the future. Orders every listing.
      table.bigInteger('sort_at').notNullable();
      table.specificType('summary', longText);
      table.specificType('content', longText);
      table.text('categories').notNullable();
      table.boolean('is_read').notNullable().defaultTo(false);
      table.bigInteger('snoozed_until');
      table.bigInteger('created_at').notNullable();
      table.unique(['feed_id', 'item_key'], {indexName: 'articles_feed_key_unique'});
      // B-trees scan backwards, so these serve ORDER BY sort_at DESC, id DESC with a seek to the cursor.
      table.index(['sort_at', 'id'], 'articles_by_time');
      table.index(['feed_id', 'sort_at', 'id'], 'articles_by_feed_time');
      table.index(['feed_id', 'is_read', 'snoozed_until'], 'articles_unread_count');
    });
    if (dialect === 'mysql') {
      await db.schema.raw('CREATE INDEX articles_unread ON articles (is_read, sort_at, id)');
    } else {
      await db.schema.raw(`CREATE INDEX articles_unread ON articles (sort_at, id) WHERE ${unreadCondition(dialect)}`);
    }
    await db.schema.createTable('article_categories', (table) => {
      table.integer('article_id').unsigned().notNullable().references('id').inTable('articles').onDelete('CASCADE');
      table.integer('feed_id').unsigned().notNullable();
      exact(table.string('name', 200).notNullable(), dialect);
      table.primary(['article_id', 'name']);
      table.index(['name', 'article_id'], 'article_categories_by_name');
      table.index(['feed_id', 'name'], 'article_categories_by_feed');
    });
    await db.schema.createTable('lists', (table) => {
      table.increments('id');
      table.string('title', 200).notNullable();
      table.string('visibility', 16).notNullable();
      exact(table.string('token', 64), dialect).unique({indexName: 'lists_token_unique'});
      table.bigInteger('created_at').notNullable();
    });
    await db.schema.createTable('list_items', (table) => {
      table.integer('list_id').unsigned().notNullable().references('id').inTable('lists').onDelete('CASCADE');
      table.integer('article_id').unsigned().notNullable().references('id').inTable('articles').onDelete('CASCADE');
      table.bigInteger('added_at').notNullable();
      table.primary(['list_id', 'article_id']);
      table.index(['article_id'], 'list_items_by_article');
    });
  },
  async down(db) {
    for (const table of ['list_items', 'lists', 'article_categories', 'articles', 'feeds']) await db.schema.dropTableIfExists(table);
  },
};

// The category filter walked articles newest first and probed each for the category: fine for a
// common subject, a scan of every article for a rare one. A copy of sort_at (which never changes
// after insert) lets it seek (name, sort_at, article_id) by keyset like the other filters.
const categoryTimes: Migration = {
  name: '002_category_sort_at',
  async up(db) {
    await db.schema.alterTable('article_categories', (table) => {
      table.bigInteger('sort_at');
    });
    await db.raw('update article_categories set sort_at = (select a.sort_at from articles a where a.id = article_categories.article_id)');
    await db.schema.alterTable('article_categories', (table) => {
      table.index(['name', 'sort_at', 'article_id'], 'article_categories_by_name_time');
      table.dropIndex(['name', 'article_id'], 'article_categories_by_name');
    });
  },
  async down(db) {
    await db.schema.alterTable('article_categories', (table) => {
      table.index(['name', 'article_id'], 'article_categories_by_name');
      table.dropIndex(['name', 'sort_at', 'article_id'], 'article_categories_by_name_time');
      table.dropColumn('sort_at');
    });
  },
};

// Where a feed's URL came from decides which addresses its polls may reach
// (source/net/address-policy.ts): a URL the user typed or imported may name a private or loopback
// host; one found at a public address (a link discovered in a public page, a permanent redirect
// from a public address) may not, at every later poll too, so a name that rebinds to 127.0.0.1
// after subscribing is refused. Feeds stored before this column are kept as typed.
const feedOrigin: Migration = {
  name: '003_feed_allow_private',
  async up(db) {
    await db.schema.alterTable('feeds', (table) => {
      table.boolean('allow_private').notNullable().defaultTo(true);
    });
  },
  async down(db) {
    await db.schema.alterTable('feeds', (table) => {
      table.dropColumn('allow_private');
    });
  },
};

// When a list last changed (an item added or removed, or gone with its feed): the shared RSS's
// lastBuildDate and Last-Modified. Lists stored before it take their newest item's time.
const listChanges: Migration = {
  name: '004_list_changed_at',
  async up(db) {
    await db.schema.alterTable('lists', (table) => {
      table.bigInteger('changed_at');
    });
    await db.raw('update lists set changed_at = coalesce((select max(li.added_at) from list_items li where li.list_id = lists.id), lists.created_at)');
  },
  async down(db) {
    await db.schema.alterTable('lists', (table) => {
      table.dropColumn('changed_at');
    });
  },
};

// GET /feeds counted every feed's unread articles live: ~115 ms at a million articles. Each feed
// now keeps how many of its articles are unread, changed in the same transaction as the articles
// (new ones, read/unread, mark-all-read); snoozing does not change it, so the few articles snoozed
// at the moment of a listing are counted live and subtracted, through an index on snoozed_until.
const unreadCounts: Migration = {
  name: '005_feed_unread_count',
  async up(db, dialect) {
    await db.schema.alterTable('feeds', (table) => {
      table.integer('unread_count').notNullable().defaultTo(0);
    });
    await db.raw(`update feeds set unread_count = (select count(*) from articles a where a.feed_id = feeds.id and ${unreadCondition(dialect, 'a')})`);
    await db.schema.alterTable('articles', (table) => {
      table.index(['snoozed_until', 'is_read', 'feed_id'], 'articles_snoozed');
    });
  },
  async down(db) {
    await db.schema.alterTable('articles', (table) => {
      table.dropIndex(['snoozed_until', 'is_read', 'feed_id'], 'articles_snoozed');
    });
    await db.schema.alterTable('feeds', (table) => {
      table.dropColumn('unread_count');
    });
  },
};

// Ingestors (source/feeds/ingestors): each owns a feed (its kept statuses are that feed's
// articles) and a ledger of the statuses it has handled. The ledger gives identity across polls
// (a status is judged once, its edits update its article, its absence inside a time-ordered
// window deletes it), holds the model's cached judgement, and keeps pending digest entries with
// their payload until the digest article is written — in the same transaction that marks them
// digested, so a crash between gathering and writing loses nothing and writes nothing twice.
const ingestorTables: Migration = {
  name: '006_ingestors',
  async up(db, dialect) {
    const longText = dialect === 'mysql' ? 'mediumtext' : 'text';
    await db.schema.createTable('ingestors', (table) => {
      table.increments('id');
      table.string('kind', 16).notNullable();
      // The config without credential fields (JSON), and the credential fields alone, encrypted (AES-256-GCM).
      table.text('config').notNullable();
      table.text('secrets');
      table.integer('feed_id').unsigned().notNullable().references('id').inTable('feeds').onDelete('CASCADE');
      table.integer('fetch_interval_min').notNullable();
      table.string('digest_mode', 16).notNullable();
      table.double('filter_threshold').notNullable();
      table.boolean('llm_enabled').notNullable().defaultTo(false);
      table.string('status', 16).notNullable().defaultTo('pending');
      table.text('status_message');
      table.integer('consecutive_failures').notNullable().defaultTo(0);
      table.bigInteger('last_fetched_at');
      table.bigInteger('next_fetch_at');
      table.bigInteger('next_digest_at');
      table.bigInteger('created_at').notNullable();
      table.index(['next_fetch_at'], 'ingestors_due');
      table.unique(['feed_id'], {indexName: 'ingestors_feed_unique'});
    });
    await db.schema.createTable('ingestor_statuses', (table) => {
      table.integer('ingestor_id').unsigned().notNullable().references('id').inTable('ingestors').onDelete('CASCADE');
      exact(table.string('status_key', 255).notNullable(), dialect);
      // kept (an article), dropped (below the threshold), pending (waiting for a digest), digested
      table.string('fate', 12).notNullable();
      table.string('content_hash', 64).notNullable();
      table.string('author', 255).notNullable();
      table.double('engagement').notNullable();
      table.double('score').notNullable();
      table.bigInteger('posted_at').notNullable();
      table.bigInteger('seen_at').notNullable();
      table.integer('article_id').unsigned();
      // pending only: the ScoredStatus as JSON, what the digest is built from
      table.specificType('payload', longText);
      // kept ones: their normalised links and text fingerprint (JSON array), so a later copy is a duplicate
      table.text('fingerprints');
      // the model's judgement, valid while content_hash is llm_hash
      table.double('llm_relevance');
      table.text('llm_why');
      table.string('llm_hash', 64);
      table.primary(['ingestor_id', 'status_key']);
      table.index(['ingestor_id', 'fate', 'posted_at'], 'ingestor_statuses_by_fate');
      table.index(['ingestor_id', 'author'], 'ingestor_statuses_by_author');
    });
  },
  async down(db) {
    for (const table of ['ingestor_statuses', 'ingestors']) await db.schema.dropTableIfExists(table);
  },
};

// Google Reader API users (source/feeds/greader): the API password a client (newsboat, Reeder)
// signs in with, set by `workbench reader password`. Only its scrypt hash is kept; the auth token
// ClientLogin hands out is derived from a per-user secret that a new password replaces, so
// setting a password signs every client out.
const readerApiUsers: Migration = {
  name: '007_reader_api_users',
  async up(db, dialect) {
    await db.schema.createTable('reader_api_users', (table) => {
      exact(table.string('username', 200).notNullable(), dialect).primary();
      table.text('password_hash').notNullable();
      table.string('token_secret', 128).notNullable();
      table.bigInteger('created_at').notNullable();
      table.bigInteger('updated_at').notNullable();
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('reader_api_users');
  },
};

// Media files attached to articles (podcasts, video), after Miniflux's enclosures table: one row
// per URL, in the feed's order, replaced with the article. length is BIGINT: a 2 GB file's size
// passes a 32-bit INT.
const articleEnclosures: Migration = {
  name: '008_article_enclosures',
  async up(db) {
    await db.schema.createTable('enclosures', (table) => {
      table.integer('article_id').unsigned().notNullable().references('id').inTable('articles').onDelete('CASCADE');
      table.integer('position').notNullable();
      table.text('url').notNullable();
      table.string('mime_type', 255);
      table.bigInteger('length');
      table.integer('duration_seconds');
      table.primary(['article_id', 'position']);
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('enclosures');
  },
};

const MIGRATIONS: Migration[] = [readerTables, categoryTimes, feedOrigin, listChanges, unreadCounts, ingestorTables, readerApiUsers, articleEnclosures];

/** The literal SQL of "unread" (a literal, so SQLite can match the partial index). */
export function unreadCondition(dialect: Dialect, alias?: string): string {
  const column = alias ? `${alias}.is_read` : 'is_read';
  return dialect === 'postgres' ? `${column} = false` : `${column} = 0`;
}

export function readCondition(dialect: Dialect, alias?: string): string {
  const column = alias ? `${alias}.is_read` : 'is_read';
  return dialect === 'postgres' ? `${column} = true` : `${column} = 1`;
}

/** knex's migration source interface over the migrations above, for migrate.latest(). */
export function readerMigrations(dialect: Dialect): Knex.MigrationSource<Migration> {
  return migrationSource(MIGRATIONS, dialect);
}
