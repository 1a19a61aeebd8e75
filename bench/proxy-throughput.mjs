// Dev proxy throughput (issue 8): a small JSON answer through the proxy at 50 concurrent keep-alive
// connections (autocannon), against the target hit directly and the Node peers `http-proxy`
// (keep-alive agent) and `@fastify/http-proxy`, in the same run on the same cores. Targets: at
// least 2x each peer's requests/s; added p50 latency under 1 ms (one request at a time, timed here
// in µs, proxy minus direct).
// Load generator, target and proxy share the machine's cores, so each is in a process of its own
// and the rounds are interleaved (direct, ours, peers, again) with the median kept. The proxies'
// own CPU time per request is shown too: it does not depend on what else the machine is doing.
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import http from 'node:http';
import {fileURLToPath} from 'node:url';
import autocannon from 'autocannon';

const peer = fileURLToPath(new URL('./_proxy-peer.mjs', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KINDS = ['direct', 'ours', 'http-proxy', 'fastify'];

async function start(kind, targetPort = '') {
  const child = spawn(process.execPath, [peer, kind, String(targetPort)], {stdio: ['pipe', 'pipe', 'inherit']});
  const [line] = await once(child.stdout, 'data');
  return {child, port: Number(String(line).trim())};
}

async function cpuMicros(child) {
  child.stdin.write('cpu\n');
  const [line] = await once(child.stdout, 'data');
  return Number(String(line).trim());
}

async function load(port, seconds) {
  const result = await autocannon({url: `http://127.0.0.1:${port}/api/items`, connections: 50, pipelining: 1, duration: seconds});
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`port ${port}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {rps: result.requests.average, total: result.requests.total, p50: result.latency.p50};
}

/** p50 of one request at a time over one kept-alive connection, in ms with µs resolution. */
async function serialP50(port, count = 2000) {
  const agent = new http.Agent({keepAlive: true, maxSockets: 1});
  const times = [];
  for (let index = 0; index < count; index++) {
    const started = process.hrtime.bigint();
    await new Promise((resolve, reject) => {
      http
        .get({host: '127.0.0.1', port, path: '/api/items', agent}, (res) => {
          res.resume();
          res.on('end', resolve);
        })
        .on('error', reject);
    });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const target = await start('target');
const servers = {direct: {child: target.child, port: target.port}};
const samples = Object.fromEntries(KINDS.map((kind) => [kind, {rps: [], p50: [], serial: [], cpu: []}]));
try {
  for (const kind of KINDS.slice(1)) servers[kind] = await start(kind, target.port);
  for (const kind of KINDS) await load(servers[kind].port, 1); // warm-up: JIT, pools
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of KINDS) {
      const {child, port} = servers[kind];
      const before = await cpuMicros(child);
      const busy = await load(port, SECONDS);
      const used = (await cpuMicros(child)) - before;
      samples[kind].rps.push(busy.rps);
      samples[kind].p50.push(busy.p50);
      samples[kind].cpu.push(used / busy.total);
      samples[kind].serial.push(await serialP50(port));
    }
  }
} finally {
  for (const {child} of Object.values(servers)) child.kill();
}

const row = (kind) => ({rps: median(samples[kind].rps), p50: median(samples[kind].p50), serial: median(samples[kind].serial), cpu: median(samples[kind].cpu)});
const direct = row('direct');
const ours = row('ours');
console.log(`small JSON, 50 keep-alive connections, ${ROUNDS} interleaved rounds of ${SECONDS} s (load, target and proxy on the same cores)`);
for (const kind of KINDS) {
  const {rps, p50, serial, cpu} = row(kind);
  const cpuText = kind === 'direct' ? 'target' : 'process';
  console.log(
    `${kind.padEnd(11)} ${rps.toFixed(0).padStart(6)} req/s  ${(rps / direct.rps).toFixed(2)}x direct  p50 ${p50} ms  one-at-a-time p50 ${serial.toFixed(3)} ms  ${cpu.toFixed(0)} µs CPU/request (${cpuText})`,
  );
}
let failed = false;
for (const kind of ['http-proxy', 'fastify']) {
  const ratio = ours.rps / row(kind).rps;
  const pass = ratio >= 2;
  failed ||= !pass;
  console.log(`ours / ${kind}: ${ratio.toFixed(2)}x req/s, ${(row(kind).cpu / ours.cpu).toFixed(2)}x less CPU per request (target >= 2x req/s) ${pass ? 'PASS' : 'FAIL'}`);
}
const added = ours.serial - direct.serial;
console.log(`added p50 latency, one request at a time: ${added.toFixed(3)} ms (target < 1 ms) ${added < 1 ? 'PASS' : 'FAIL'}`);
process.exitCode = failed || added >= 1 ? 1 : 0;
