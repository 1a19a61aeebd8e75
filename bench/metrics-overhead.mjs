// Metrics overhead (issue 15): a dev proxy's throughput with the daemon's per-proxy metrics on
// (http_requests_total, http_request_duration_seconds, read once a second) against the same proxy
// with WORKBENCH_METRICS=off, in the same run: autocannon, 50 keep-alive connections, a small JSON
// answer, rounds alternating on/off with the median kept. Target: under 2 % fewer requests/s.
// The proxies' own CPU time per request is shown too: it does not depend on the machine's other load.
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {fileURLToPath} from 'node:url';
import autocannon from 'autocannon';

const peer = fileURLToPath(new URL('./_proxy-peer.mjs', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const KINDS = ['off', 'on'];

async function start(kind, targetPort = '') {
  // BENCH_AA=1: both sides off — the noise floor between two identical proxies in this run.
  const env = {...process.env, BENCH_PROXY_METRICS: '1', WORKBENCH_METRICS: kind === 'off' || process.env.BENCH_AA ? 'off' : 'on'};
  const child = spawn(process.execPath, [peer, kind === 'target' ? 'target' : 'ours', String(targetPort)], {stdio: ['pipe', 'pipe', 'inherit'], env});
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
  return {rps: result.requests.average, total: result.requests.total};
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const target = await start('target');
const servers = {};
const samples = {off: {rps: [], cpu: []}, on: {rps: [], cpu: []}};
try {
  for (const kind of KINDS) servers[kind] = await start(kind, target.port);
  for (const kind of KINDS) await load(servers[kind].port, 1); // warm-up: JIT, pools
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which side goes first, so neither always runs on a warmer or busier machine.
    for (const kind of round % 2 ? [...KINDS].reverse() : KINDS) {
      const {child, port} = servers[kind];
      const before = await cpuMicros(child);
      const busy = await load(port, SECONDS);
      samples[kind].rps.push(busy.rps);
      samples[kind].cpu.push(((await cpuMicros(child)) - before) / busy.total);
    }
  }
} finally {
  for (const {child} of [target, ...Object.values(servers)]) child.kill();
}

const off = {rps: median(samples.off.rps), cpu: median(samples.off.cpu)};
const on = {rps: median(samples.on.rps), cpu: median(samples.on.cpu)};
console.log(`dev proxy, small JSON, 50 keep-alive connections, autocannon, ${ROUNDS} alternating rounds of ${SECONDS} s`);
for (const [kind, row] of [
  ['metrics off', off],
  ['metrics on', on],
]) {
  console.log(`${kind.padEnd(12)} ${row.rps.toFixed(0).padStart(6)} req/s  ${row.cpu.toFixed(1)} µs CPU/request (proxy)`);
}
const overhead = (1 - on.rps / off.rps) * 100;
const cpuOverhead = (on.cpu / off.cpu - 1) * 100;
console.log(`overhead: ${overhead.toFixed(2)} % req/s, ${cpuOverhead.toFixed(2)} % CPU per request (target < 2 % req/s) ${overhead < 2 ? 'PASS' : 'FAIL'}`);
process.exitCode = overhead < 2 ? 0 : 1;
