// Dev proxy injection (issue 8): what injecting the page script adds to a 1 MB HTML page (target
// < 5 ms). End to end: the same page is fetched through the proxy as text/html (buffered, injected,
// CSP adjusted) and as text/plain (streamed untouched), one request at a time, in alternation; the
// difference of the medians is the injection's cost. In process: injectHtml() alone on the identity
// page and on its gzip form (decoding included: the browser would have decoded it too, but here the
// proxy does it).
import http from 'node:http';
import {gzipSync} from 'node:zlib';
import {injectHtml} from '../dist/source/devproxy/inject/inject-html.js';
import {PageScript} from '../dist/source/devproxy/inject/page-script.js';
import {startProxy} from '../dist/source/devproxy/start-proxy.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const LIMIT_MS = 5;

// A page of the size a dev build's HTML reaches with inlined state: head with styles and scripts, then markup.
function page(bytes) {
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench</title><style>${'.c{color:red}'.repeat(500)}</style><script type="module" src="/src/main.js"></script></head><body>`;
  const row = '<div class="row"><span class="cell">lorem ipsum dolor</span><a href="/item/1">item</a></div>\n';
  return Buffer.from(head + row.repeat(Math.ceil((bytes - head.length) / row.length)) + '</body></html>');
}

const html = page(1024 * 1024);
const gzipped = gzipSync(html);
const csp = "default-src 'self'; script-src 'self' 'nonce-abc'; connect-src 'self'";
const target = http.createServer((req, res) => {
  const [path, type] = req.url.split('?type=');
  const body = path === '/gzip' ? gzipped : html;
  res.writeHead(200, {'content-type': type, 'content-length': body.length, 'content-security-policy': csp, ...(path === '/gzip' ? {'content-encoding': 'gzip'} : {})});
  res.end(body);
});
await new Promise((resolve) => target.listen(0, '127.0.0.1', resolve));
const proxy = await startProxy({id: 'bench', target: `http://127.0.0.1:${target.address().port}`}, {pageScript: 'window.__devtool = {};'.repeat(2000)});
const agent = new http.Agent({keepAlive: true, maxSockets: 1});

function fetchMs(path) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    http
      .get(`${proxy.info.url}${path}`, {agent, headers: {'accept-encoding': 'gzip'}}, (res) => {
        res.resume();
        res.on('end', () => resolve(Number(process.hrtime.bigint() - started) / 1e6));
      })
      .on('error', reject);
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
let failed = false;
try {
  const script = new PageScript('window.__devtool = {};'.repeat(2000));
  for (const [name, body, headers] of [
    ['identity', html, {'content-type': 'text/html', 'content-security-policy': csp}],
    ['gzip', gzipped, {'content-type': 'text/html', 'content-encoding': 'gzip', 'content-security-policy': csp}],
  ]) {
    const times = [];
    for (let round = 0; round < ROUNDS + 5; round++) {
      const started = process.hrtime.bigint();
      if (!injectHtml(body, headers, script, 'ws://127.0.0.1:1')) throw new Error('not injected');
      if (round >= 5) times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    const took = median(times);
    failed ||= took >= LIMIT_MS;
    console.log(`injectHtml on the 1 MB page (${name}): median ${took.toFixed(2)} ms (target < ${LIMIT_MS} ms) ${took < LIMIT_MS ? 'PASS' : 'FAIL'}`);
  }
  for (const path of ['/identity']) {
    const injected = [];
    const streamed = [];
    for (let round = 0; round < ROUNDS + 5; round++) {
      const withScript = await fetchMs(`${path}?type=text/html; charset=utf-8`);
      const without = await fetchMs(`${path}?type=text/plain`);
      if (round >= 5) {
        injected.push(withScript);
        streamed.push(without);
      }
    }
    const added = median(injected) - median(streamed);
    failed ||= added >= LIMIT_MS;
    console.log(
      `1 MB page (${path.slice(1)}, ${(path === '/gzip' ? gzipped : html).length} bytes on the wire): injected ${median(injected).toFixed(2)} ms, streamed untouched ${median(streamed).toFixed(2)} ms, added ${added.toFixed(2)} ms (target < ${LIMIT_MS} ms) ${added < LIMIT_MS ? 'PASS' : 'FAIL'}`,
    );
  }
  const entry = proxy.log({types: ['http']}).find((item) => item.injected);
  if (!entry) throw new Error('no page was injected');
} finally {
  agent.destroy();
  await proxy.stop();
  target.close();
}
process.exitCode = failed ? 1 : 0;
