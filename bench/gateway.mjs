// The feed gateway's figures (issue 9), each against its peer in the same run:
// 1. GET /<name> of a cached 50-item feed, 50 keep-alive connections on loopback, with the
//    gateway's headers (ETag, Cache-Control, Link, negotiation) and its request log on, against
//    bare node:http (its own process) serving the same bytes and headers from memory: target ≥ 0.95×;
//    and against a node:http server that re-renders the feed on every request: target ≥ 10×.
//    The gateway's fastify route alone (no front) is shown too: what the kit costs per request.
// 2. Posting 10,000 items to one channel over HTTP (8 at a time): target < 10 s; then GET of the
//    channel's feed, re-read and re-rendered after a post: target < 20 ms.
// Load: wrk (1 thread) when installed, else a node keep-alive client. Each server's CPU time per
// request is shown beside its req/s: on a shared machine it moves less than throughput does.
// Build first: npm run build   Run: node bench/gateway.mjs [seconds per run, default 3] [posts, default 10000]
import {spawn, spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import http from 'node:http';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

const SECONDS = Number(process.argv[2] ?? 3);
const ROUNDS = 3;
const CONNECTIONS = 50;
const ITEMS = 50;
const POSTS = Number(process.argv[3] ?? 10_000);
const POST_CONCURRENCY = 8;
const dir = mkdtempSync(join(tmpdir(), 'wb-bench-gateway-'));

// The origin: one RSS 2.0 feed of 50 items of ordinary size.
const items = Array.from(
  {length: ITEMS},
  (_, i) =>
    `<item><guid>https://news.example/posts/${i}</guid><title>Headline number ${i} of a feed of ordinary length</title><link>https://news.example/posts/${i}</link>` +
    `<description>${'A summary of a couple of sentences, as feeds put in their description element. '.repeat(3)}</description><pubDate>${new Date(Date.UTC(2026, 5, 1) - i * 3_600_000).toUTCString()}</pubDate></item>`,
).join('');
const originXml = `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>https://news.example/</link><description>The news</description>${items}</channel></rss>`;
const origin = http.createServer((request, response) => response.writeHead(200, {'content-type': 'application/rss+xml'}).end(originXml));
await new Promise((resolve) => origin.listen(0, '127.0.0.1', resolve));

// Each server in a process of its own (bench/_gateway-peer.mjs); this one only drives them.
const peer = fileURLToPath(new URL('./_gateway-peer.mjs', import.meta.url));
const peers = [];
async function startPeer(...args) {
  const child = spawn(process.execPath, [peer, ...args], {stdio: ['ignore', 'pipe', 'inherit']});
  peers.push(child);
  const line = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) resolve(output.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`bench/_gateway-peer.mjs ${args[0]} exited (${code})`)));
  });
  return {url: JSON.parse(line).url, pid: child.pid};
}
const originUrl = `http://127.0.0.1:${origin.address().port}/feed.xml`;
const gateway = await startPeer('gateway', dir, originUrl);
const route = await startPeer('route', dir, originUrl);
const rerender = await startPeer('rerender', dir, originUrl);

// What the gateway answers, served from memory by bare node:http with the same headers.
const answer = await fetch(`${gateway.url}/news`);
const body = Buffer.from(await answer.arrayBuffer());
const headers = Object.fromEntries([...answer.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)));
if (answer.status !== 200 || !headers.etag) throw new Error(`the gateway answered ${answer.status}`);
writeFileSync(join(dir, 'body'), body);
const bare = await startPeer('bare', dir, join(dir, 'body'), JSON.stringify(headers));

const hasWrk = spawnSync('wrk', ['--version']).error === undefined;

// CPU time of a process in µs, from /proc (clock ticks of 10 ms).
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Requests per second, and the server's CPU per request (steadier than req/s on a shared machine). */
async function measure(url, pid) {
  const cpu = cpuMicros(pid);
  const {rps, requests} = await load(url);
  return {rps, cpuPerRequest: (cpuMicros(pid) - cpu) / requests};
}

async function load(url) {
  if (hasWrk) {
    // Not spawnSync: the gateway answers from this process's event loop.
    const wrk = spawn('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '-H', 'Accept: application/rss+xml, application/xml;q=0.9', '-H', 'User-Agent: FeedReader/1.0', url]);
    let output = '';
    wrk.stdout.on('data', (chunk) => (output += chunk));
    wrk.stderr.on('data', (chunk) => (output += chunk));
    await new Promise((resolve) => wrk.on('close', resolve));
    const rps = /Requests\/sec:\s+([\d.]+)/.exec(output)?.[1];
    const requests = /(\d+) requests in/.exec(output)?.[1];
    if (!rps || !requests) throw new Error(`wrk: ${output}`);
    return {rps: Number(rps), requests: Number(requests)};
  }
  return keepAliveClient(url);
}

// The fallback load: 50 keep-alive connections from this process (slower than wrk; ratios still fair).
async function keepAliveClient(url) {
  const agent = new http.Agent({keepAlive: true, maxSockets: CONNECTIONS});
  const until = performance.now() + SECONDS * 1000;
  let done = 0;
  const one = () =>
    new Promise((resolve, reject) => {
      http.get(url, {agent, headers: {accept: 'application/rss+xml'}}, (response) => response.resume().on('end', resolve)).on('error', reject);
    });
  await Promise.all(
    Array.from({length: CONNECTIONS}, async () => {
      while (performance.now() < until) {
        await one();
        done++;
      }
    }),
  );
  agent.destroy();
  return {rps: done / SECONDS, requests: done};
}

const targets = {
  'bare node:http': [`${bare.url}/news`, bare.pid],
  gateway: [`${gateway.url}/news`, gateway.pid],
  'gateway, fastify route only': [`${route.url}/news`, route.pid],
  're-render per request': [`${rerender.url}/news`, rerender.pid],
};
const best = {};
// Warm every server (JIT, caches), then alternate rounds so drift on a shared machine hits all alike.
for (const [url] of Object.values(targets)) for (let i = 0; i < 200; i++) await (await fetch(url)).arrayBuffer();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, [url, pid]] of Object.entries(targets)) {
    const {rps, cpuPerRequest} = await measure(url, pid);
    best[name] = {rps: Math.max(best[name]?.rps ?? 0, rps), cpu: Math.min(best[name]?.cpu ?? Infinity, cpuPerRequest)};
  }
}
console.log(`GET /news (${body.length} bytes, ${ITEMS} items), ${CONNECTIONS} keep-alive connections, ${hasWrk ? 'wrk' : 'node client'}, best of ${ROUNDS} × ${SECONDS} s:`);
for (const [name, {rps, cpu}] of Object.entries(best))
  console.log(`  ${name.padEnd(30)} ${Math.round(rps).toLocaleString('en').padStart(8)} req/s  ${cpu.toFixed(1).padStart(7)} µs CPU/request`);
const ratio = (a, b) => ({rps: best[a].rps / best[b].rps, cpu: best[b].cpu / best[a].cpu});
const line = (label, {rps, cpu}, target) =>
  console.log(`  ${label.padEnd(30)} ${rps.toFixed(2)}× req/s, ${cpu.toFixed(2)}× by CPU per request  (target ≥ ${target}×) ${rps >= target ? 'ok' : 'MISSED'}`);
line('gateway / bare node:http', ratio('gateway', 'bare node:http'), 0.95);
line('gateway / re-render', ratio('gateway', 're-render per request'), 10);
const kit = ratio('gateway, fastify route only', 'bare node:http');
console.log(`  fastify route / bare node:http ${kit.rps.toFixed(2)}× req/s, ${kit.cpu.toFixed(2)}× by CPU  (what the kit costs without the front)`);

// Channels: 10,000 posts, then the feed.
const json = (path, init = {}) => fetch(`${gateway.url}${path}`, {...init, headers: {'content-type': 'application/json', ...init.headers}});
const created = await (await json('/api/channels', {method: 'POST', body: JSON.stringify({title: 'Bench channel'})})).json();
// node:http with keep-alive: undici's fetch costs ~5 ms a request more here, in the gateway's own process.
const agent = new http.Agent({keepAlive: true, maxSockets: POST_CONCURRENCY});
const post = (n) =>
  new Promise((resolve, reject) => {
    const payload = JSON.stringify({title: `Item ${n}`, link: `https://example.org/items/${n}`, description: `Posted item number ${n}, a line of text.`});
    const request = http.request(`${gateway.url}/api/channels/${created.id}/items`, {
      method: 'POST',
      agent,
      headers: {'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: `Bearer ${created.write_token}`},
    });
    request.on('response', (response) => {
      response.resume().on('end', () => (response.statusCode === 201 ? resolve() : reject(new Error(`post ${n}: ${response.statusCode}`))));
    });
    request.on('error', reject);
    request.end(payload);
  });
let next = 0;
const posting = performance.now();
await Promise.all(
  Array.from({length: POST_CONCURRENCY}, async () => {
    while (next < POSTS) await post(next++);
  }),
);
const postSeconds = (performance.now() - posting) / 1000;
console.log(
  `\nposting ${POSTS.toLocaleString('en')} items to one channel (${POST_CONCURRENCY} at a time): ${postSeconds.toFixed(2)} s (target < 10 s) ${postSeconds < 10 ? 'ok' : 'MISSED'}`,
);
const renders = [];
for (let i = 0; i < 7; i++) {
  // A post changes the channel, so the GET reads it anew and renders it.
  await post(POSTS + i);
  const started = performance.now();
  const response = await fetch(`${gateway.url}/${created.id}`);
  const bytes = (await response.arrayBuffer()).byteLength;
  renders.push(performance.now() - started);
  if (i === 0) console.log(`channel feed: ${response.status}, ${bytes.toLocaleString('en')} bytes`);
}
renders.sort((a, b) => a - b);
const median = renders[Math.floor(renders.length / 2)];
console.log(
  `channel feed GET after a post (read + render + send), median of 7: ${median.toFixed(1)} ms, worst ${renders.at(-1).toFixed(1)} ms (target < 20 ms) ${median < 20 ? 'ok' : 'MISSED'}`,
);

agent.destroy();
for (const child of peers) child.kill();
origin.close();
rmSync(dir, {recursive: true, force: true});
