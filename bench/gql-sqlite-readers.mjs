// GraphQL on SQLite (issue 27 item 2): reads in reader processes, so no query blocks the server.
// On Chinook in a SQLite file of the run's own, two servers of the build side by side: reader
// processes (the default, 4) and every statement on the server's thread (`sqliteReaders: 0`, how
// SQLite ran before), measured in the same run:
//   1. /_workbench/health p99 while a heavy query (~3 s of SQLite work, admitted by a raised
//      max-query-cost) runs again and again: target < 100 ms with readers;
//   2. the cost of the processes on small queries: the flat shape (20 tracks) under load,
//      req/s and p99 of readers against the server's thread, rounds alternating.
// Build first: npm run build   Run: node bench/gql-sqlite-readers.mjs   (BENCH_SECONDS, BENCH_ROUNDS)
import {spawn, spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import autocannon from 'autocannon';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const HEALTH_TARGET_MS = 100;
const cli = fileURLToPath(new URL('../dist/source/cli.js', import.meta.url));
const helper = fileURLToPath(new URL('./_sqlite-graphql-server.mjs', import.meta.url));
const METADATA = [':root { max-query-cost: 9000000000000000; statement-timeout: 60 }'];
const none = 'filter: {Track: {Name: {_eq: "no such track"}}}';
const HEAVY = `{ Track(limit: -1) { data { PlaylistTrack(limit: -1) { Playlist { PlaylistTrack(limit: -1, ${none}) { TrackId } } } } } }`;
const SMALL = '{ Track(limit: 20, sort: [TrackId_asc]) { data { TrackId Name Composer Milliseconds UnitPrice } } }';
const SIDES = {readers: 4, 'server thread': 0};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

const children = [];
async function startServer(file, readers) {
  const child = spawn(process.execPath, [helper, file, String(readers), JSON.stringify(METADATA)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {...process.env, NODE_ENV: 'production'},
  });
  children.push(child);
  const line = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before answering`)));
  });
  return JSON.parse(line).url;
}

async function post(url, query) {
  const response = await fetch(`${url}/graphql`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({query})});
  const answer = await response.json();
  if (response.status !== 200 || answer.errors) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(answer.errors ?? answer).slice(0, 300)}`);
  return answer;
}

/** Health latencies (ms), one request after another, while HEAVY runs back to back for `seconds`. */
async function healthUnderHeavy(url, seconds) {
  const until = performance.now() + seconds * 1000;
  let heavies = 0;
  const heavyLoop = (async () => {
    while (performance.now() < until) {
      await post(url, HEAVY);
      heavies++;
    }
  })();
  const latencies = [];
  while (performance.now() < until) {
    const started = performance.now();
    const response = await fetch(`${url}/_workbench/health`);
    await response.json();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await heavyLoop;
  return {latencies, heavies};
}

async function smallLoad(url) {
  const result = await autocannon({
    url: `${url}/graphql`,
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify({query: SMALL}),
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {rps: result.requests.average, p99: result.latency.p99};
}

const scratch = mkdtempSync(join(tmpdir(), 'wb-bench-sqlite-readers-'));
let failed;
try {
  const file = join(scratch, 'chinook.sqlite');
  const settings = join(scratch, 'appsettings.json');
  writeFileSync(settings, JSON.stringify({ConnectionStrings: {gqlservice: `Data Source=${file}`}, GqlService: {Provider: 'sqlite', DisableAuth: true}}));
  const loaded = spawnSync(process.execPath, [cli, 'gql', 'sample', '--settings', settings], {env: {...process.env, WORKBENCH_HOME: join(scratch, 'home')}, encoding: 'utf8'});
  if (loaded.status !== 0) throw new Error(`gql sample failed: ${loaded.stderr}`);
  const urls = {};
  for (const [side, readers] of Object.entries(SIDES)) urls[side] = await startServer(file, readers);
  for (const url of Object.values(urls)) for (let i = 0; i < 200; i++) await post(url, SMALL);

  const samples = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? Object.keys(SIDES) : Object.keys(SIDES).reverse()) {
      const entry = (samples[side] ??= {rps: [], p99: [], health: [], heavies: 0});
      const {rps, p99} = await smallLoad(urls[side]);
      entry.rps.push(rps);
      entry.p99.push(p99);
      const {latencies, heavies} = await healthUnderHeavy(urls[side], SECONDS);
      entry.health.push(...latencies);
      entry.heavies += heavies;
    }
  }

  console.log(`Chinook in SQLite, ${ROUNDS} alternating rounds of ${SECONDS} s per figure (servers and load on the same cores)`);
  const row = (side) => ({rps: median(samples[side].rps), p99: median(samples[side].p99), health: percentile(samples[side].health, 99)});
  for (const side of Object.keys(SIDES)) {
    const {rps, p99, health} = row(side);
    console.log(
      `  ${side.padEnd(14)} small ${rps.toFixed(0).padStart(6)} req/s  p99 ${p99.toFixed(1).padStart(6)} ms   health p99 under a heavy query ${health.toFixed(1).padStart(7)} ms (${samples[side].health.length} probes, ${samples[side].heavies} heavy queries)`,
    );
  }
  const ours = row('readers');
  const peer = row('server thread');
  const healthOk = ours.health < HEALTH_TARGET_MS;
  failed = !healthOk;
  console.log(
    `  health p99 under a heavy query: ${ours.health.toFixed(1)} ms with readers (target < ${HEALTH_TARGET_MS} ms: ${healthOk ? 'PASS' : 'FAIL'}), ${(peer.health / ours.health).toFixed(0)}× lower than on the server's thread`,
  );
  console.log(`  small queries with readers / on the server's thread: ${(ours.rps / peer.rps).toFixed(2)}× req/s, ${(ours.p99 / peer.p99).toFixed(2)}× p99`);
} finally {
  for (const child of children) child.kill();
  rmSync(scratch, {recursive: true, force: true});
}
process.exit(failed ? 1 : 0);
