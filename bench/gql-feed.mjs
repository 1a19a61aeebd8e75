// The GraphQL service's feed surface (spec 3, syndicated feed surface): `GET /feeds/posts` of a
// 100,000-row table in SQLite and in the machine's PostgreSQL, through the real server
// (`workbench serve graphql`, its own process), newest 50 rows as RSS 2.0:
//   1. a full answer (200: read through the read path, hash, the rendered bytes reused while the
//      version is the same): target p99 under 10 ms;
//   2. a conditional GET of the unchanged table (If-None-Match: the ETag → 304): rate and p99;
//   3. without the index on (published_at, id), once, for the difference it makes (the README
//      tells users to create it).
//   4. the peer, in the same run: the feed gateway's fastify route (bench/_gateway-peer.mjs `route`,
//      no front, as this route has none) serving a cached 50-item feed of the same shape — the
//      gateway keeps its feeds in memory, ours reads the database on every request.
// Load: autocannon, one keep-alive connection (BENCH_CONNECTIONS: server, load and database share
// two cores).
// Build first: npm run build   Run: node bench/gql-feed.mjs   (BENCH_SECONDS, BENCH_ROWS, BENCH_PG_USER, BENCH_ONLY=sqlite|postgres|gateway, BENCH_CONNECTIONS)
import {spawn} from 'node:child_process';
import http from 'node:http';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import {serveGraphql} from './_serve-graphql.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);
const TARGET_P99_MS = 10;
const PG = {host: '127.0.0.1', port: 5432, user: process.env.BENCH_PG_USER ?? 'postgres'};
const DATABASE = `wb_bench_feed_${process.pid}`;
const rules = (schema) => [`${schema}.posts { feed-timestamp: published_at; feed-title: title; feed-body: body; feed-link: https://blog.example/{slug}; soft-delete: deleted_at }`];
const INDEX = 'create index posts_feed on posts (published_at, id)';
const scratch = mkdtempSync(join(tmpdir(), 'wb-bench-gql-feed-'));
const children = [];

const body = (i) => `<p>Post ${i}: ${'a paragraph of ordinary length, as a blog post body starts. '.repeat(3)}</p>`;
const at = (i) => new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString().replace('T', ' ').slice(0, 19);

async function sqliteDatabase() {
  const Database = createRequire(import.meta.url)('better-sqlite3');
  const file = join(scratch, 'feed.sqlite');
  const db = new Database(file);
  db.exec('create table posts (id integer primary key, title text, body text, slug text, published_at datetime, deleted_at datetime)');
  const insert = db.prepare('insert into posts (id, title, body, slug, published_at, deleted_at) values (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    // Every 10th row soft-deleted: the filter has rows to skip, as a real table does.
    for (let i = 1; i <= ROWS; i++) insert.run(i, `Post number ${i}`, body(i), `post-${i}`, at(i), i % 10 === 0 ? at(i + 1) : null);
  })();
  return {
    connection: `Data Source=${file}`,
    provider: 'sqlite',
    index: async () => db.exec(INDEX),
    drop: async () => db.close(),
  };
}

async function postgresDatabase() {
  const admin = new pg.Client({...PG, database: 'test'});
  await admin.connect();
  await admin.query(`create database ${DATABASE}`);
  const db = new pg.Client({...PG, database: DATABASE});
  await db.connect();
  await db.query('create table posts (id serial primary key, title text, body text, slug text, published_at timestamp, deleted_at timestamp)');
  await db.query(
    `insert into posts (title, body, slug, published_at, deleted_at)
     select 'Post number ' || i, '<p>Post ' || i || ': ' || repeat('a paragraph of ordinary length, as a blog post body starts. ', 3) || '</p>', 'post-' || i,
            timestamp '2020-01-01' + i * interval '1 minute', case when i % 10 = 0 then timestamp '2020-01-01' + (i + 1) * interval '1 minute' end
     from generate_series(1, $1) as i`,
    [ROWS],
  );
  await db.query('analyze posts');
  return {
    connection: `Host=${PG.host};Port=${PG.port};Database=${DATABASE};Username=${PG.user}`,
    provider: 'postgres',
    index: async () => {
      await db.query(INDEX);
      await db.query('analyze posts');
    },
    drop: async () => {
      await db.end();
      await admin.query(`drop database if exists ${DATABASE} with (force)`);
      await admin.end();
    },
  };
}

async function startServer(database, name) {
  const settings = join(scratch, `${name}.json`);
  writeFileSync(
    settings,
    JSON.stringify({
      ConnectionStrings: {gqlservice: database.connection},
      GqlService: {Provider: database.provider, DisableAuth: true, Metadata: rules(database.provider === 'sqlite' ? 'main' : 'public')},
    }),
  );
  const {base, child} = await serveGraphql({
    settings,
    home: join(scratch, `home-${name}`),
    ready: (at) =>
      fetch(`${at}/feeds/posts`).then(
        (response) => response.ok,
        () => false,
      ),
  });
  children.push(child);
  const url = `${base}/feeds/posts`;
  const answer = await fetch(url);
  return {url, etag: answer.headers.get('etag'), items: (await answer.text()).match(/<item>/g)?.length ?? 0, stop: () => child.kill()};
}

async function load(url, headers, expected, seconds = SECONDS) {
  const result = await autocannon({url, headers, connections: CONNECTIONS, duration: seconds, expectBody: undefined});
  const wrong = result.statusCodeStats ? Object.keys(result.statusCodeStats).filter((code) => Number(code) !== expected) : [];
  if (result.errors > 0 || wrong.length > 0) throw new Error(`${url}: ${result.errors} errors, status codes ${JSON.stringify(result.statusCodeStats)}`);
  return {rps: result.requests.average, p99: result.latency.p99, p50: result.latency.p50};
}

const show = (label, figures) => console.log(`  ${label.padEnd(34)} ${String(Math.round(figures.rps)).padStart(6)} req/s   p50 ${figures.p50} ms   p99 ${figures.p99} ms`);

/** The feed gateway's route serving a proxied feed of 50 items like ours (the origin: node:http here). */
async function gatewayPeer() {
  const items = Array.from(
    {length: 50},
    (_, i) =>
      `<item><guid isPermaLink="false">urn:x:${i}</guid><title>Post number ${i}</title><link>https://blog.example/post-${i}</link><description><![CDATA[${body(i)}]]></description><pubDate>${new Date(Date.UTC(2026, 0, 1) - i * 60_000).toUTCString()}</pubDate></item>`,
  ).join('');
  const xml = `<?xml version="1.0"?><rss version="2.0"><channel><title>posts</title><link>https://blog.example/</link><description>d</description>${items}</channel></rss>`;
  const origin = http.createServer((_request, response) => response.writeHead(200, {'content-type': 'application/rss+xml'}).end(xml));
  await new Promise((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const child = spawn(process.execPath, [fileURLToPath(new URL('./_gateway-peer.mjs', import.meta.url)), 'route', scratch, `http://127.0.0.1:${origin.address().port}/feed.xml`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const line = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) resolve(output.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`bench/_gateway-peer.mjs route exited (${code})`)));
  });
  const url = `${JSON.parse(line).url}/news`;
  const etag = (await fetch(url)).headers.get('etag');
  return {url, etag, stop: () => (child.kill(), origin.close())};
}

let failed = false;
try {
  if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'gateway') {
    const peer = await gatewayPeer();
    console.log(`\nthe peer: the feed gateway's route (fastify, no front) serving a cached 50-item feed, ${CONNECTIONS} connection(s), ${SECONDS} s each`);
    show('200, gateway', await load(peer.url, {}, 200));
    show('304, gateway, If-None-Match', await load(peer.url, {'if-none-match': peer.etag}, 304));
    peer.stop();
  }
  const only = process.env.BENCH_ONLY;
  for (const make of [sqliteDatabase, postgresDatabase]) {
    if (only && !make.name.startsWith(only)) continue;
    const database = await make();
    try {
      console.log(`\n${database.provider}: ${ROWS} rows (every 10th soft-deleted), GET /feeds/posts → the newest 50 as RSS 2.0, ${CONNECTIONS} connections, ${SECONDS} s each`);
      const bare = await startServer(database, `${database.provider}-noindex`);
      const noIndex = await load(bare.url, {}, 200, Math.min(SECONDS, 3));
      show('200, no index on published_at', noIndex);
      bare.stop();
      await database.index();
      const server = await startServer(database, database.provider);
      if (server.items !== 50) throw new Error(`the feed has ${server.items} items, not 50`);
      const full = await load(server.url, {}, 200);
      const notModified = await load(server.url, {'if-none-match': server.etag}, 304);
      show('200, index (published_at, id)', full);
      show('304, If-None-Match, unchanged', notModified);
      const ok = full.p99 < TARGET_P99_MS;
      if (!ok) failed = true;
      console.log(`  p99 of a full answer ${full.p99} ms, target < ${TARGET_P99_MS} ms: ${ok ? 'PASS' : 'FAIL'}`);
      server.stop();
    } finally {
      await database.drop();
    }
  }
} finally {
  for (const child of children) child.kill();
  rmSync(scratch, {recursive: true, force: true});
}
process.exit(failed ? 1 : 0);
