// Polls 2,000 feeds served by the local origin (fixtures/feed-origin) twice: a first round that
// downloads everything, then a second where half the feeds answer 304 to the stored validators
// and half have changed. Runs createPoller + fetchFeed (16 workers, 2 per host) in a child
// process so its peak RSS is its own, and, as a peer, a naive Promise.all of fetch with no limits.
// Target (issue 3): both rounds under 60 s with bounded memory. Build first: npm run build.
// Run: node bench/feed-poll.mjs
import {spawn} from 'node:child_process';
import {existsSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const FEEDS = 2000;
const HOSTS = 20;
const ITEMS = 20;
const TARGET_SECONDS = 60;

const mode = process.argv[2];
if (mode === '--child') await child(process.argv[3], JSON.parse(process.env.FEED_POLL_URLS ?? '[]'));
else await main();

async function main() {
  const poller = path.join(repo, 'dist/source/feeds/poller/index.js');
  if (!existsSync(poller)) {
    console.error('bench/feed-poll: dist/source/feeds/poller/index.js is missing; run `npm run build` first');
    process.exit(1);
  }
  const {startFeedOrigin} = await import('../fixtures/feed-origin/server.mjs');
  const origin = await startFeedOrigin({listeners: HOSTS});
  try {
    console.log(`${FEEDS} feeds of ${ITEMS} items on ${HOSTS} host:ports of 127.0.0.1; round 2: half 304, half changed`);
    await warmOrigin(feedList(origin.urls));
    const polite = await runChild('poller', origin.urls);
    const oneHost = await runChild('poller', origin.urls.slice(0, 1));
    const naive = await runChild('naive', origin.urls);
    const rows = [
      ['createPoller + fetchFeed, 20 hosts', polite],
      ['createPoller + fetchFeed, 1 host (2 at a time)', oneHost],
      ['naive Promise.all(fetch), 20 hosts', naive],
    ];
    for (const [name, r] of rows) {
      console.log(
        `${name.padEnd(48)} round 1 ${seconds(r.round1Ms)}  round 2 ${seconds(r.round2Ms)} (${r.notModified} × 304, ${r.changed} × 200, ${r.failed} failed)  ` +
          `total ${seconds(r.round1Ms + r.round2Ms)}  ${Math.round((2 * FEEDS) / ((r.round1Ms + r.round2Ms) / 1000))} req/s  peak RSS ${r.peakRssMb} MB  heap after GC ${r.heapAfterGcMb} MB${r.parsed ? `  parsed ${r.parsed}` : ''}`,
      );
    }
    const total = (polite.round1Ms + polite.round2Ms) / 1000;
    console.log(
      `poller vs naive: time ${((naive.round1Ms + naive.round2Ms) / (polite.round1Ms + polite.round2Ms)).toFixed(2)}× (naive / poller), peak RSS ${(polite.peakRssMb / naive.peakRssMb).toFixed(2)}× (poller / naive)`,
    );
    console.log(`target: ${FEEDS} feeds twice in under ${TARGET_SECONDS} s — ${total < TARGET_SECONDS && polite.failed === 0 ? 'met' : 'MISSED'} (${total.toFixed(2)} s)`);
  } finally {
    await origin.close();
  }
}

// The origin builds each generated feed on first request: pay that once, before any contestant.
async function warmOrigin(feeds) {
  let next = 0;
  await Promise.all(
    Array.from({length: 16}, async () => {
      while (next < feeds.length) {
        const response = await fetch(feeds[next++].url);
        await response.arrayBuffer();
      }
    }),
  );
}

function runChild(kind, urls) {
  return new Promise((resolve, reject) => {
    const worker = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', kind], {
      env: {...process.env, FEED_POLL_URLS: JSON.stringify(urls)},
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    worker.stdout.on('data', (chunk) => (out += chunk));
    worker.on('error', reject);
    worker.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${kind} child exited ${code}`))));
  });
}

function feedList(urls) {
  // Even ids never change (304 on round 2); odd ids change on every request.
  return Array.from({length: FEEDS}, (_, i) => ({
    id: i + 1,
    url: `${urls[i % urls.length]}/gen/f${i + 1}.xml?items=${ITEMS}${(i + 1) % 2 ? '&volatile=1' : ''}`,
  }));
}

async function child(kind, urls) {
  const feeds = feedList(urls);
  const counts = {notModified: 0, changed: 0, failed: 0, parsed: 0};
  // The reader's parser, when it has been built: both contestants parse what they download.
  const parseFeed = await import('../dist/source/feeds/parser/index.js').then(
    (module) => module.parseFeed,
    () => null,
  );
  const round = kind === 'naive' ? naiveRound(parseFeed) : await politeRound(parseFeed);
  const validators = new Map();
  const started1 = performance.now();
  await round(feeds, validators, counts);
  const round1Ms = performance.now() - started1;
  counts.notModified = counts.changed = 0;
  const started2 = performance.now();
  await round(feeds, validators, counts);
  const round2Ms = performance.now() - started2;
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  // What stays alive once the garbage of 4,000 fetches is collected: nothing should.
  globalThis.gc?.();
  const heapAfterGcMb = Math.round(process.memoryUsage().heapUsed / 1048576);
  process.stdout.write(JSON.stringify({round1Ms, round2Ms, peakRssMb, heapAfterGcMb, ...counts}));
}

function naiveRound(parseFeed) {
  return (feeds, validators, counts) =>
    Promise.all(
      feeds.map(async (feed) => {
        const stored = validators.get(feed.id) ?? {};
        const headers = {};
        if (stored.etag) headers['if-none-match'] = stored.etag;
        if (stored.lastModified) headers['if-modified-since'] = stored.lastModified;
        try {
          const response = await fetch(feed.url, {headers});
          const body = Buffer.from(await response.arrayBuffer());
          if (response.status === 304) counts.notModified++;
          else if (response.ok && body.byteLength > 0) counts.changed++;
          else counts.failed++;
          if (response.status === 200 && parseFeed) {
            parseFeed(body, response.headers.get('content-type'));
            counts.parsed++;
          }
          validators.set(feed.id, {etag: response.headers.get('etag') ?? stored.etag, lastModified: response.headers.get('last-modified') ?? stored.lastModified});
        } catch {
          counts.failed++;
        }
      }),
    );
}

async function politeRound(parseFeed) {
  const {createPoller, nextCheckAt} = await import('../dist/source/feeds/poller/index.js');
  const {fetchFeed} = await import('../dist/source/feeds/fetcher/index.js');

  return async (feeds, validators, counts) => {
    const nextCheck = new Map(feeds.map((feed) => [feed.id, 0]));
    const byId = new Map(feeds.map((feed) => [feed.id, feed]));
    const poller = createPoller({
      async dueFeeds(now, limit) {
        const due = [];
        for (const feed of feeds) {
          if (nextCheck.get(feed.id) <= now.getTime()) due.push(feed);
          if (due.length === limit) break;
        }
        return due;
      },
      async refresh(id) {
        const stored = validators.get(id) ?? {};
        const result = await fetchFeed(byId.get(id).url, {etag: stored.etag, lastModified: stored.lastModified});
        if (result.status === 'not_modified') counts.notModified++;
        else counts.changed++;
        let ttlMinutes = null;
        if (result.status === 'ok' && parseFeed) {
          ttlMinutes = parseFeed(result.body, result.contentType).ttlMinutes ?? null;
          counts.parsed++;
        }
        validators.set(id, {etag: result.etag, lastModified: result.lastModified});
        nextCheck.set(id, nextCheckAt({now: new Date(), intervalMinutes: 60, ttlMinutes, maxAgeSeconds: result.maxAgeSeconds}).getTime());
      },
      onError: () => counts.failed++,
    });
    const tally = await poller.runOnce();
    if (tally.polled !== feeds.length) throw new Error(`polled ${tally.polled} of ${feeds.length}`);
  };
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(2)} s`;
}
