// Dev proxy memory (issue 8): a proxy whose traffic log holds 100,000 entries stays under 200 MB
// RSS. The entries are real: 100,000 requests through the proxy with a browser's headers and a
// small JSON answer (each entry keeps both header sets and the first 2 KB of the body). The
// proxy's RSS right after start is shown for comparison.
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {fileURLToPath} from 'node:url';
import autocannon from 'autocannon';

const peer = fileURLToPath(new URL('./_proxy-peer.mjs', import.meta.url));
const ENTRIES = 100_000;
const LIMIT_MB = 200;

async function start(kind, targetPort = '', env = {}) {
  const child = spawn(process.execPath, ['--expose-gc', peer, kind, String(targetPort)], {stdio: ['pipe', 'pipe', 'inherit'], env: {...process.env, ...env}});
  const [line] = await once(child.stdout, 'data');
  return {child, port: Number(String(line).trim())};
}

async function memory(child) {
  child.stdin.write('mem\n');
  const [line] = await once(child.stdout, 'data');
  const [rss, entries] = String(line).trim().split(' ').map(Number);
  return {mb: rss / 1024 / 1024, entries};
}

const browserHeaders = {
  accept: 'application/json, text/plain, */*',
  'accept-language': 'en-GB,en;q=0.9',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  referer: 'http://127.0.0.1/dashboard',
  cookie: 'session=3f1c2a9be07d4c51a3b6f0e2d9c87a41; theme=dark',
  'sec-fetch-site': 'same-origin',
  'sec-fetch-mode': 'cors',
};

const target = await start('target');
const proxy = await start('ours', target.port, {LOG_SIZE: String(ENTRIES)});
try {
  const empty = await memory(proxy.child);
  const result = await autocannon({url: `http://127.0.0.1:${proxy.port}/api/items?page=1`, connections: 20, amount: ENTRIES, headers: browserHeaders});
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const full = await memory(proxy.child);
  const pass = full.mb < LIMIT_MB && full.entries === ENTRIES;
  console.log(
    `proxy RSS: ${empty.mb.toFixed(0)} MB at start, ${full.mb.toFixed(0)} MB holding ${full.entries} log entries (${(((full.mb - empty.mb) * 1024 * 1024) / full.entries).toFixed(0)} bytes each)`,
  );
  console.log(`target < ${LIMIT_MB} MB with ${ENTRIES} entries ${pass ? 'PASS' : 'FAIL'}`);
  process.exitCode = pass ? 0 : 1;
} finally {
  proxy.child.kill();
  target.child.kill();
}
