// The 1,000,000-article SQLite store the reader's benchmarks read (reader-articles, greader):
// 200 feeds, about two years of articles, 70% read, 1,000 unread ones snoozed. Generated once and
// cached in .bench-data/reader-articles/ (delete it to rebuild); the page cache is warmed on each
// open. The caller sets WORKBENCH_HOME to `home` before importing the reader.
import {existsSync, mkdirSync, rmSync} from 'node:fs';
import {open} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const home = join(root, '.bench-data/reader-articles');
export const database = join(home, 'reader.sqlite');
const complete = join(home, 'complete-v3');

export const FEEDS = 200;
export const ARTICLES = 1_000_000;
export const SNOOZED = 1_000;
export const NEWEST = Date.UTC(2026, 5, 1);

/** The store, built when missing, its file read once so the figures are for a warm cache. */
export async function readerBenchStore(openStore) {
  // Deterministic pseudo-random numbers so every build of the store is the same.
  let seed = 7;
  function random() {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  }

  async function fill(openStore) {
    rmSync(home, {recursive: true, force: true});
    mkdirSync(home, {recursive: true});
    const started = performance.now();
    // Schema and indexes from the reader's own migrations; rows through better-sqlite3 directly,
    // in transactions of 10,000, which is how fast a bulk load can go.
    const store = await openStore(database);
    await store.close();
    const Database = createRequire(import.meta.url)('better-sqlite3');
    const db = new Database(database);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    const insertFeed = db.prepare(
      "insert into feeds (id, url, url_hash, title, site_url, category, fetch_status, interval_minutes, consecutive_failures, created_at, last_fetched_at, last_success_at, next_fetch_at) values (?, ?, ?, ?, ?, ?, 'ok', 60, 0, ?, ?, ?, ?)",
    );
    const insertArticle = db.prepare(
      'insert into articles (id, feed_id, item_key, title, link, author, published_at, sort_at, summary, content, categories, is_read, snoozed_until, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null, ?)',
    );
    const insertCategory = db.prepare('insert into article_categories (article_id, feed_id, name, sort_at) values (?, ?, ?, ?)');
    db.transaction(() => {
      for (let feed = 1; feed <= FEEDS; feed++) {
        const url = `https://feeds.example/${feed}.xml`;
        insertFeed.run(
          feed,
          url,
          String(feed).padStart(64, '0'),
          `Feed ${feed}`,
          `https://feeds.example/${feed}/`,
          feed % 5 ? 'News' : null,
          NEWEST,
          NEWEST,
          NEWEST,
          NEWEST + 3_600_000,
        );
      }
    })();
    const batch = db.transaction((from, to) => {
      for (let id = from; id < to; id++) {
        const feed = 1 + Math.floor(random() * FEEDS);
        // About two years of articles; whole seconds, so many share a timestamp (ties on sort_at).
        const published = NEWEST - Math.floor(random() * 63_000_000) * 1000;
        const topic = `topic-${Math.floor(random() * 40)}`;
        insertArticle.run(
          id,
          feed,
          `https://feeds.example/${feed}/posts/${id}`,
          `Article ${id}: a headline of ordinary length for a feed item`,
          `https://feeds.example/${feed}/posts/${id}`,
          'A. Writer',
          published,
          published,
          'A summary of a couple of sentences, as feeds put in their description element. It runs on for a little while.',
          '<p>Full content of the article, as content:encoded carries it.</p>',
          JSON.stringify([topic]),
          random() < 0.7 ? 1 : 0,
          NEWEST,
        );
        insertCategory.run(id, feed, topic, published);
      }
    });
    for (let from = 1; from <= ARTICLES; from += 10_000) batch(from, Math.min(from + 10_000, ARTICLES + 1));
    // Some unread articles snoozed for a year (the listing subtracts them live); the kept unread
    // counts as the reader's writes would have left them (the rows above bypassed the reader).
    db.prepare('update articles set snoozed_until = ? where id in (select id from articles where is_read = 0 order by id limit ?)').run(NEWEST + 365 * 86_400_000, SNOOZED);
    db.exec('update feeds set unread_count = (select count(*) from articles a where a.feed_id = feeds.id and a.is_read = 0)');
    db.exec('analyze');
    db.close();
    mkdirSync(complete);
    console.log(`built the store: ${ARTICLES.toLocaleString('en')} articles in ${FEEDS} feeds, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }

  if (!existsSync(complete)) await fill(openStore);
  else console.log(`store: cached in ${home}`);

  // This VM reclaims idle page cache (DAMON), so a store left alone for minutes is read back from
  // disk: a walk through pages never visited then costs disk reads (p99 ~50 ms seen here). The
  // figures below are for a warm cache, as a running reader has; reading the file once warms it.
  {
    const started = performance.now();
    const handle = await open(database, 'r');
    const chunk = Buffer.allocUnsafe(8 * 1024 * 1024);
    let total = 0;
    for (let read; (read = (await handle.read(chunk, 0, chunk.length, total)).bytesRead) > 0;) total += read;
    await handle.close();
    console.log(`warmed the page cache: ${(total / 1024 / 1024).toFixed(0)} MB read in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }

  return database;
}
