// GET /api/v1/articles?limit=50 on a SQLite store of 1,000,000 articles across 200 feeds, through
// app.inject (routing, validation, the keyset query, serialisation) at page depths 1, 100 and
// 10,000: p50/p99 over 500 requests each; target p99 < 10 ms at any depth. Then GET /api/v1/feeds
// (every feed with its unread count; 1,000 of the unread articles snoozed): target p99 < 5 ms;
// then the same right after a write, when the answer is read anew rather than kept.
// The store is generated once and cached in .bench-data/reader-articles/ (delete it to rebuild).
// Build first: npm run build   Run: node bench/reader-articles.mjs
import {FEEDS, SNOOZED, database, home, readerBenchStore} from './_reader-store.mjs';
// The bench's own WORKBENCH_HOME: nothing it does touches the real one.
process.env.WORKBENCH_HOME = home;
const {buildReaderApp, createReaderService, openStore} = await import('../dist/servers/reader/index.js');

const PAGE = 50;
const RUNS = 500;
const WARMUP = 50;
const TARGET_P99_MS = 10;
const FEEDS_TARGET_P99_MS = 5;

await readerBenchStore(openStore);

const service = await createReaderService({connection: database});
const app = buildReaderApp({service});
await app.ready();

// The cursor that ends page `depth - 1`: the last row of the article before that page, found
// with one OFFSET query (setup only; the requests themselves only ever seek by keyset).
async function cursorBeforePage(depth) {
  if (depth === 1) return '';
  const [row] = await service.store
    .db('articles')
    .select('id', 'sort_at')
    .orderBy([
      {column: 'sort_at', order: 'desc'},
      {column: 'id', order: 'desc'},
    ])
    .offset((depth - 1) * PAGE - 1)
    .limit(1);
  return `&before=${encodeURIComponent(new Date(Number(row.sort_at)).toISOString())}&before_id=${row.id}`;
}

// app.inject settles without passing through the event loop, so light-my-request's setImmediate
// clean-ups (each holding its request and response) pile up in a tight loop and the heap grows
// until a major GC lands inside a measurement. A server returns to the loop between requests; so
// does the bench, outside the timed part.
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

async function measure(url) {
  const times = [];
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const started = performance.now();
    const response = await app.inject({method: 'GET', url});
    const elapsed = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
    if (run >= WARMUP) times.push(elapsed);
    await nextTurn();
  }
  times.sort((a, b) => a - b);
  return {p50: percentile(times, 0.5), p99: percentile(times, 0.99)};
}

let worst = 0;
for (const depth of [1, 100, 10_000]) {
  const url = `/api/v1/articles?limit=${PAGE}${await cursorBeforePage(depth)}`;
  const page = (await app.inject({method: 'GET', url})).json();
  if (page.articles.length !== PAGE || !page.nextCursor) throw new Error(`page ${depth} is not a full page`);
  const {p50, p99} = await measure(url);
  worst = Math.max(worst, p99);
  console.log(`GET /articles?limit=50, page ${depth.toLocaleString('en')}: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`);
}

// Following nextCursor from page 10,000 on: every request a different page.
{
  let url = `/api/v1/articles?limit=${PAGE}${await cursorBeforePage(10_000)}`;
  const times = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const page = (await app.inject({method: 'GET', url})).json();
    times.push(performance.now() - started);
    url = `/api/v1/articles?limit=${PAGE}&before=${encodeURIComponent(page.nextCursor.before)}&before_id=${page.nextCursor.before_id}`;
    await nextTurn();
  }
  times.sort((a, b) => a - b);
  worst = Math.max(worst, percentile(times, 0.99));
  console.log(`following nextCursor from page 10,000 (500 pages): p50 ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms`);
}

// Filtered lists, for comparison (not part of the target).
for (const [name, query] of [
  ['unread', 'unread=true'],
  ['one feed', 'feed_id=17'],
  ['one category', 'category=topic-3'],
]) {
  const {p50, p99} = await measure(`/api/v1/articles?limit=${PAGE}&${query}`);
  console.log(`  ${name} (${query}), page 1: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`);
}

console.log(`worst p99 ${worst.toFixed(2)} ms (target p99 < ${TARGET_P99_MS} ms at any depth) ${worst < TARGET_P99_MS ? 'PASS' : 'FAIL'}`);

// GET /feeds: 200 feeds with unread counts over 1,000,000 articles. The counts are kept per feed
// (changed in the transaction of each write), less the articles snoozed now, counted live; the
// answer is kept while nothing committed and no snooze ended (feed-list-cache.ts).
{
  const feeds = (await app.inject({method: 'GET', url: '/api/v1/feeds'})).json();
  const live = await service.store.db.raw('select feed_id, count(*) as n from articles where is_read = 0 and (snoozed_until is null or snoozed_until <= ?) group by feed_id', [
    Date.now(),
  ]);
  const liveOf = new Map(live.map((row) => [Number(row.feed_id), Number(row.n)]));
  const wrong = feeds.filter((feed) => feed.unreadCount !== (liveOf.get(feed.id) ?? 0));
  if (feeds.length !== FEEDS || wrong.length) throw new Error(`GET /feeds: ${feeds.length} feeds, ${wrong.length} with a wrong unread count`);
  const {p50, p99} = await measure('/api/v1/feeds');
  const total = feeds.reduce((sum, feed) => sum + feed.unreadCount, 0);
  console.log(
    `GET /feeds (${FEEDS} feeds, ${total.toLocaleString('en')} unread, ${SNOOZED.toLocaleString('en')} snoozed): p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms (target p99 < ${FEEDS_TARGET_P99_MS} ms) ${p99 < FEEDS_TARGET_P99_MS ? 'PASS' : 'FAIL'}`,
  );
  // The same after every request's store changed (an article marked read, then unread again,
  // untimed, before each): the answer is read anew each time, as right after a poll or a click.
  const [{id}] = await service.store.db('articles').select('id').where('is_read', 0).whereNull('snoozed_until').orderBy('id').limit(1);
  const times = [];
  for (let run = 0; run < WARMUP + RUNS; run++) {
    await service.setRead(id, run % 2 === 0);
    const started = performance.now();
    const response = await app.inject({method: 'GET', url: '/api/v1/feeds'});
    const elapsed = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`/api/v1/feeds answered ${response.statusCode}`);
    if (run >= WARMUP) times.push(elapsed);
    await nextTurn();
  }
  await service.setRead(id, false);
  times.sort((a, b) => a - b);
  console.log(`GET /feeds right after a write (read anew): p50 ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms`);
}
await app.close();
await service.close();
