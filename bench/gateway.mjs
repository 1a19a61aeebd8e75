// The feed gateway's figures (issue 9), each against its peer in the same run:
// 1. GET /<name> of a cached 50-item feed, 50 keep-alive connections on loopback, with the
//    gateway's headers (ETag, Cache-Control, Link, negotiation) and its request log on, against
//    bare node:http (its own process) serving the same bytes and headers from memory: target ≥ 0.95×;
//    and against a node:http server that re-renders the feed on every request: target ≥ 10×.
//    The gateway's fastify route alone (no front) is shown too: what the kit costs per request.
// 2. Posting 10,000 items to one channel over HTTP (8 at a time): target < 10 s; then GET of the
//    channel's feed, re-read and re-rendered after a post: target < 20 ms.
// Load: wrk (1 thread) when installed, else autocannon, else a node keep-alive client.
// Build first: npm run build   Run: node bench/gateway.mjs [seconds per run, default 3] [posts, default 10000]
import {spawn, spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import http from 'node:http';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

const SECONDS = Number(process.argv[2] ?? 3);
const CONNECTIONS = 50;
const ITEMS = 50;
const POSTS = Number(process.argv[3] ?? 10_000);
const POST_CONCURRENCY = 8;
const dir = mkdtempSync(join(tmpdir(), 'wb-bench-gateway-'));
process.env.WORKBENCH_HOME = join(dir, 'home');
const {startGatewayServer} = await import('../dist/servers/gateway/index.js');
const {renderFeed} = await import('../dist/source/gateway/render/index.js');

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
const config = {feeds: [{name: 'news', origin: `http://127.0.0.1:${origin.address().port}/feed.xml`, pollIntervalMs: 600_000}]};

const start = (name, front) => startGatewayServer({port: 0, db: join(dir, `${name}.sqlite`), config, logFile: join(dir, `${name}.log`), background: false, front});
const gateway = await start('gateway', true);
const route = await start('route', false);
for (const server of [gateway, route]) await server.service.refresh('news');

// What the gateway answers, to serve from memory.
const answer = await fetch(`${gateway.url}/news`);
const body = Buffer.from(await answer.arrayBuffer());
const headers = Object.fromEntries([...answer.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)));
if (answer.status !== 200 || !headers.etag) throw new Error(`the gateway answered ${answer.status}`);

// Bare node:http in a process of its own, the same bytes and headers.
writeFileSync(join(dir, 'body'), body);
const bare = spawn(
  process.execPath,
  [
    '-e',
    `const body = require('fs').readFileSync(${JSON.stringify(join(dir, 'body'))}); const headers = ${JSON.stringify(headers)};
     const server = require('http').createServer((q, r) => { r.writeHead(200, headers); r.end(body); });
     server.listen(0, '127.0.0.1', () => console.log(server.address().port));`,
  ],
  {stdio: ['ignore', 'pipe', 'inherit']},
);
const barePort = await new Promise((resolve) => bare.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim()))));

// Re-rendered on every request: the document in memory, the bytes made anew (no store read, no fastify).
const document = await gateway.service.document('news');
const rerender = http.createServer((request, response) => {
  const rendered = renderFeed(document, 'rss', {baseUrl: gateway.url});
  response.writeHead(200, {...headers, etag: rendered.etag, 'content-length': rendered.body.length});
  response.end(rendered.body);
});
await new Promise((resolve) => rerender.listen(0, '127.0.0.1', resolve));

const hasWrk = spawnSync('wrk', ['--version']).error === undefined;
async function load(url) {
  if (hasWrk) {
    // Not spawnSync: the gateway answers from this process's event loop.
    const wrk = spawn('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '-H', 'Accept: application/rss+xml, application/xml;q=0.9', '-H', 'User-Agent: FeedReader/1.0', url]);
    let output = '';
    wrk.stdout.on('data', (chunk) => (output += chunk));
    wrk.stderr.on('data', (chunk) => (output += chunk));
    await new Promise((resolve) => wrk.on('close', resolve));
    const rps = /Requests\/sec:\s+([\d.]+)/.exec(output)?.[1];
    if (!rps) throw new Error(`wrk: ${output}`);
    return Number(rps);
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
  return done / SECONDS;
}

const targets = {
  'bare node:http': `http://127.0.0.1:${barePort}/news`,
  gateway: `${gateway.url}/news`,
  'gateway, fastify route only': `${route.url}/news`,
  're-render per request': `http://127.0.0.1:${rerender.address().port}/news`,
};
const best = {};
// Warm every server (JIT, caches), then alternate rounds so drift on a shared machine hits all alike.
for (const url of Object.values(targets)) for (let i = 0; i < 200; i++) await (await fetch(url)).arrayBuffer();
for (let round = 0; round < 2; round++) {
  for (const [name, url] of Object.entries(targets)) best[name] = Math.max(best[name] ?? 0, await load(url));
}
console.log(`GET /news (${body.length} bytes, ${ITEMS} items), ${CONNECTIONS} keep-alive connections, ${hasWrk ? 'wrk' : 'node client'}, best of 2 × ${SECONDS} s:`);
for (const [name, rps] of Object.entries(best)) console.log(`  ${name.padEnd(30)} ${Math.round(rps).toLocaleString('en').padStart(8)} req/s`);
const vsBare = best.gateway / best['bare node:http'];
const vsRerender = best.gateway / best['re-render per request'];
console.log(`  gateway / bare node:http       ${vsBare.toFixed(2)}×  (target ≥ 0.95×) ${vsBare >= 0.95 ? 'ok' : 'MISSED'}`);
console.log(`  gateway / re-render            ${vsRerender.toFixed(1)}×  (target ≥ 10×) ${vsRerender >= 10 ? 'ok' : 'MISSED'}`);
console.log(`  fastify route / bare node:http ${(best['gateway, fastify route only'] / best['bare node:http']).toFixed(2)}×  (the kit's cost without the front)`);
bare.kill();
rerender.close();
await route.close();

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
await gateway.close();
origin.close();
rmSync(dir, {recursive: true, force: true});
