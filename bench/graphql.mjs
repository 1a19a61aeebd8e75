// GraphQL over a database (issue 10): the three query shapes of PostGraphile's performance page on
// Chinook in the machine's PostgreSQL, against PostGraphile 4 on the same database in the same run:
//   flat    a flat list of 20 tracks
//   artist  the albums of one artist with their tracks and each track's genre
//   deep    artists → albums → tracks → genre, media type and playlists
// Targets per shape: ≥ 1.2× PostGraphile's requests/s, p99 no worse. Also shown: SQL statements
// per request (ours from the X-Gql-Debug extension, PostGraphile's from its own debug log) and each
// server's CPU per request (steadier than req/s on a shared machine).
// Load: wrk (1 thread, a Lua script posting the query) when installed, else autocannon; 10
// connections; rounds alternate between the servers so drift on a shared machine hits both alike.
// The database `wb_bench_chinook` is created and loaded on first run and kept for the next ones
// (reloaded when the script changes). PostGraphile runs from bench/peers/postgraphile, installed
// there by `npm ci` on first run (it needs graphql 15 as a single instance; the top level has 16).
// Build first: npm run build   Run: node bench/graphql.mjs   (BENCH_SECONDS, BENCH_ROUNDS, BENCH_AUTOCANNON=1,
// BENCH_ONLY=postgraphile to measure the peer alone)
import {spawn, spawnSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {once} from 'node:events';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import {serveGraphql} from './_serve-graphql.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const DATABASE = 'wb_bench_chinook';
const PG = {host: '127.0.0.1', port: 5432, user: process.env.BENCH_PG_USER ?? 'postgres'};
const WRK = process.env.BENCH_AUTOCANNON ? false : spawnSync('wrk', ['--version']).error === undefined;
const SIDES = process.env.BENCH_ONLY === 'postgraphile' ? ['postgraphile'] : ['workbench', 'postgraphile'];
const ARTIST = 1; // AC/DC: 2 albums, 18 tracks
const DEEP_ARTISTS = 10; // artists 1–10: 15 albums, 143 tracks, each in several playlists

// The queries, in one place: each side's names for the same shape. Ours follow the upstream's
// naming over the PostgreSQL script's snake_case tables (link names as the model names them).
const QUERIES = {
  flat: {
    workbench: `{ track(limit: 20, sort: [track_id_asc]) { data { track_id name composer milliseconds unit_price } } }`,
    postgraphile: `{ allTracks(first: 20, orderBy: TRACK_ID_ASC) { nodes { trackId name composer milliseconds unitPrice } } }`,
  },
  artist: {
    workbench: `{ artist(filter: {artist_id: {_eq: ${ARTIST}}}) { data { name album { title track { name genre { name } } } } } }`,
    postgraphile: `{ artistByArtistId(artistId: ${ARTIST}) { name albumsByArtistId { nodes { title tracksByAlbumId { nodes { name genreByGenreId { name } } } } } } }`,
  },
  deep: {
    workbench: `{ artist(limit: ${DEEP_ARTISTS}, sort: [artist_id_asc]) { data { name album { title track { name genre { name } media_type { name } playlist_track { playlist { name } } } } } } }`,
    postgraphile: `{ allArtists(first: ${DEEP_ARTISTS}, orderBy: ARTIST_ID_ASC) { nodes { name albumsByArtistId { nodes { title tracksByAlbumId { nodes { name genreByGenreId { name } mediaTypeByMediaTypeId { name } playlistTracksByTrackId { nodes { playlistByPlaylistId { name } } } } } } } } } }`,
  },
};

// ---------------------------------------------------------------- the database

async function prepareDatabase() {
  let script = readFileSync(join(root, 'fixtures', 'chinook', 'Chinook_PostgreSql.sql'), 'utf8');
  const hash = createHash('sha256').update(script).digest('hex').slice(0, 16);
  // The script creates and switches to its own database (`\c` is psql's): ours replaces that part.
  script = script.slice(script.indexOf('\\c chinook;') + '\\c chinook;'.length);
  const admin = new pg.Client({...PG, database: 'test'});
  await admin.connect();
  try {
    const {rows} = await admin.query(`select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1`, [DATABASE]);
    if (rows[0]?.comment === `chinook ${hash}`) return;
    await admin.query(`drop database if exists ${DATABASE} with (force)`);
    await admin.query(`create database ${DATABASE}`);
    const client = new pg.Client({...PG, database: DATABASE});
    await client.connect();
    await client.query(script);
    await client.query('analyze');
    await client.end();
    await admin.query(`comment on database ${DATABASE} is 'chinook ${hash}'`);
    console.log(`loaded Chinook into ${DATABASE}`);
  } finally {
    await admin.end();
  }
}

// ---------------------------------------------------------------- the servers

function installPeer() {
  const folder = fileURLToPath(new URL('./peers/postgraphile/', import.meta.url));
  if (existsSync(join(folder, 'node_modules', 'postgraphile', 'package.json'))) return;
  console.log('installing PostGraphile 4 into bench/peers/postgraphile (npm ci, first run only)');
  const result = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {cwd: folder, stdio: 'inherit'});
  if (result.status !== 0) throw new Error('npm ci in bench/peers/postgraphile failed');
}

const children = [];

/** A child that answers stdin commands (`cpu`, `debug`, `count`) one line each. */
function commander(child) {
  const lines = [];
  const waiting = [];
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  return (command) =>
    new Promise((resolve) => {
      if (command === null && lines.length > 0) return resolve(lines.shift());
      waiting.push(resolve);
      if (command !== null) child.stdin.write(`${command}\n`);
    });
}

async function startPostGraphile() {
  installPeer();
  const child = spawn(process.execPath, [fileURLToPath(new URL('./_graphql-peer.mjs', import.meta.url)), `postgres://${PG.user}@${PG.host}:${PG.port}/${DATABASE}`], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: {...process.env, NODE_ENV: 'production'},
  });
  children.push(child);
  const ask = commander(child);
  const {url} = JSON.parse(await ask(null));
  return {
    url,
    pid: child.pid,
    cpu: async () => Number(await ask('cpu')),
    /** SQL statements PostGraphile sends for one request of the query. */
    async statements(query) {
      await ask('debug');
      await post(url, query);
      return Number(await ask('count'));
    },
  };
}

async function startWorkbench(dir) {
  const settings = join(dir, 'appsettings.json');
  writeFileSync(
    settings,
    JSON.stringify({
      ConnectionStrings: {gqlservice: `Host=${PG.host};Port=${PG.port};Database=${DATABASE};Username=${PG.user}`},
      GqlService: {Provider: 'postgres', DisableAuth: true},
    }),
  );
  const {base, child} = await serveGraphql({settings, home: join(dir, 'home')});
  children.push(child);
  const url = `${base}/graphql`;
  return {
    url,
    pid: child.pid,
    cpu: async () => cpuMicros(child.pid),
    async statements(query) {
      const answer = await post(url, query, {'x-gql-debug': '1'});
      return answer.extensions?.sql?.count ?? NaN;
    },
  };
}

// CPU time of a process in µs, from /proc (clock ticks of 10 ms).
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

// ---------------------------------------------------------------- load

async function post(url, query, headers = {}) {
  const response = await fetch(url, {method: 'POST', headers: {'content-type': 'application/json', ...headers}, body: JSON.stringify({query})});
  const answer = await response.json();
  if (response.status !== 200 || answer.errors) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(answer.errors ?? answer).slice(0, 500)}`);
  return answer;
}

/** How many objects with a value of their own an answer holds: both servers must do the same work. */
function objectsIn(value) {
  if (Array.isArray(value)) return value.reduce((sum, item) => sum + objectsIn(item), 0);
  if (!value || typeof value !== 'object') return 0;
  const fields = Object.values(value);
  return (fields.some((field) => field === null || typeof field !== 'object') ? 1 : 0) + fields.reduce((sum, field) => sum + objectsIn(field), 0);
}

async function load(url, query) {
  return WRK ? wrk(url, query) : autocannonLoad(url, query);
}

async function wrk(url, query) {
  const script = join(scratch, 'post.lua');
  writeFileSync(script, `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = ${JSON.stringify(JSON.stringify({query}))}\n`);
  const child = spawn('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency', '-s', script, url], {stdio: ['ignore', 'pipe', 'inherit']});
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  await once(child, 'close');
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s)\s*$/m.exec(out);
  if (/Non-2xx|Socket errors/.test(out) || !p99) throw new Error(`${url}: wrk says\n${out}`);
  return {rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]), total: Number(/(\d+) requests in/.exec(out)[1]), p99: Number(p99[1]) * {us: 0.001, ms: 1, s: 1000}[p99[2]]};
}

async function autocannonLoad(url, query) {
  const result = await autocannon({url, method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({query}), connections: CONNECTIONS, duration: SECONDS});
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {rps: result.requests.average, total: result.requests.total, p99: result.latency.p99};
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// ---------------------------------------------------------------- run

const scratch = mkdtempSync(join(tmpdir(), 'wb-bench-graphql-'));
let failed = false;
try {
  await prepareDatabase();
  const servers = {};
  for (const side of SIDES) servers[side] = side === 'workbench' ? await startWorkbench(scratch) : await startPostGraphile();

  // Each query answers without errors on each side, with the same rows; then warm up (JIT, pools, plans).
  const facts = {};
  for (const [name, texts] of Object.entries(QUERIES)) {
    facts[name] = {};
    for (const side of SIDES) {
      const answer = await post(servers[side].url, texts[side]);
      facts[name][side] = {rows: objectsIn(answer.data), statements: await servers[side].statements(texts[side])};
    }
    const rows = SIDES.map((side) => facts[name][side].rows);
    if (new Set(rows).size > 1) console.log(`  note: ${name} answers differ in size (${SIDES.map((side, i) => `${side} ${rows[i]} objects`).join(', ')})`);
    for (const side of SIDES) for (let i = 0; i < 100; i++) await post(servers[side].url, texts[side]);
  }

  const samples = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of Object.keys(QUERIES)) {
      for (const side of SIDES) {
        const server = servers[side];
        const before = await server.cpu();
        const {rps, total, p99} = await load(server.url, QUERIES[name][side]);
        const cpu = ((await server.cpu()) - before) / total;
        const entry = (samples[`${name}/${side}`] ??= {rps: [], p99: [], cpu: []});
        entry.rps.push(rps);
        entry.p99.push(p99);
        entry.cpu.push(cpu);
      }
    }
  }

  console.log(
    `Chinook in PostgreSQL, ${CONNECTIONS} connections, ${WRK ? 'wrk' : 'autocannon'}, median of ${ROUNDS} alternating rounds of ${SECONDS} s (servers, load and database on the same cores)`,
  );
  for (const name of Object.keys(QUERIES)) {
    const row = (side) => ({rps: median(samples[`${name}/${side}`].rps), p99: median(samples[`${name}/${side}`].p99), cpu: median(samples[`${name}/${side}`].cpu)});
    for (const side of SIDES) {
      const {rps, p99, cpu} = row(side);
      const {rows, statements} = facts[name][side];
      console.log(
        `  ${name.padEnd(7)} ${side.padEnd(13)} ${rps.toFixed(0).padStart(6)} req/s  p99 ${p99.toFixed(1).padStart(6)} ms  ${cpu.toFixed(0).padStart(6)} µs CPU/request  ${String(statements).padStart(3)} SQL statements/request  ${rows} objects`,
      );
    }
    if (SIDES.length === 2) {
      const ours = row('workbench');
      const peer = row('postgraphile');
      const ratio = ours.rps / peer.rps;
      const pass = ratio >= 1.2 && ours.p99 <= peer.p99;
      failed ||= !pass;
      console.log(
        `  ${name.padEnd(7)} workbench / PostGraphile: ${ratio.toFixed(2)}× req/s (target ≥ 1.2×), p99 ${(ours.p99 / peer.p99).toFixed(2)}× (target ≤ 1×) ${pass ? 'PASS' : 'FAIL'}`,
      );
    }
  }
} catch (error) {
  console.error(`graphql bench: ${error.message}`);
  failed = true;
} finally {
  for (const child of children) child.kill();
  rmSync(scratch, {recursive: true, force: true});
}
process.exitCode = failed ? 1 : 0;
