// get_errors and get_incidents in-process over a full store (500 process alerts, 10,000 HTTP
// entries over 3 proxies, plus browser records). Requests carry the proxy's trace id and the page
// session that sent them, and some alerts print a request's trace id, so get_incidents' join of
// page error, failing request and server exception has its real work to do.
// Build first: npm run prepare   Run: node bench/get-errors.mjs
import {joinStories, queryErrors, queryIncidents} from '../dist/source/incidents/index.js';

const NOW = Date.now();
const RUNS = 2000;
const WARMUP = 200;
const TARGET_P99_MS = 5;

// Deterministic pseudo-random numbers so every run measures the same store.
let seed = 42;
function random() {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}
const pick = (list) => list[Math.floor(random() * list.length)];
const traceId = () =>
  Array.from({length: 4}, () =>
    Math.floor(random() * 0xffffffff)
      .toString(16)
      .padStart(8, '0'),
  ).join('');
const PAGES = [
  {page: 'http://localhost:3000/', session: 's-home'},
  {page: 'http://localhost:3000/cart', session: 's-cart'},
];
// Trace ids of failing requests, some of which the server's alerts print (an app that logs them).
const failingTraces = [];

function processAlerts(traces) {
  const processes = ['web', 'api', 'worker', 'docs'];
  const templates = [
    {severity: 'error', category: 'TS2322', message: "Type 'string' is not assignable to type 'number'.", location: 'src/cart.ts:14:7', compile: true},
    {severity: 'error', category: 'TS2304', message: "Cannot find name 'usr'.", location: 'src/user.ts:3:10', compile: true},
    {severity: 'error', category: 'TypeError', message: "Cannot read properties of undefined (reading 'id')", location: 'src/routes/orders.js:41:18', compile: false},
    {severity: 'error', category: 'panic', message: 'runtime error: index out of range [3] with length 3', location: '/srv/api/handlers.go:88', compile: false},
    {severity: 'warning', category: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432', location: '', compile: false},
    {severity: 'error', category: 'Traceback', message: "KeyError: 'user_id'", location: 'app/views.py:57', compile: false},
    {severity: 'info', category: 'deprecation', message: 'punycode module is deprecated', location: '', compile: false},
    {severity: 'error', category: 'Error', message: "Cannot find module './db'", location: 'src/server.js:3:12', compile: false},
  ];
  const alerts = [];
  for (let index = 0; index < 500; index += 1) {
    const template = pick(templates);
    // Most alerts repeat a template exactly (duplicates dedupe merges); some carry a varying detail.
    const variant = random() < 0.7 ? '' : ` (request ${Math.floor(random() * 60)})`;
    const lastSeen = NOW - Math.floor(random() * 3_600_000);
    const trace = traces.length && random() < 0.1 ? pick(traces) : undefined;
    alerts.push({
      ...template,
      message: template.message + variant,
      raw: trace ? `[trace ${trace.traceId}] ${template.message}\n    at handler (src/server.js:12:5)` : template.message,
      id: `a${index}`,
      processId: pick(processes),
      count: 1 + Math.floor(random() * 20),
      firstSeen: lastSeen - Math.floor(random() * 600_000),
      lastSeen,
    });
  }
  return alerts;
}

const HTML_500 = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Error</title><style>${'body{font:14px sans-serif}'.repeat(20)}</style></head><body><h1>Internal Server Error</h1><pre>TypeError: Cannot read properties of undefined (reading &#39;map&#39;)<br> &nbsp; &nbsp;at renderList (/app/src/views/list.js:14:22)<br> &nbsp; &nbsp;at Layer.handle (/app/node_modules/express/lib/router/layer.js:95:5)</pre>${'<p>detail</p>'.repeat(40)}</body></html>`;

function httpEntry(timestamp) {
  const entry = failureOrSuccess(timestamp);
  Object.assign(entry, pick(PAGES), {traceId: traceId()});
  if (entry.status === 0 || entry.status >= 500) failingTraces.push(entry);
  return entry;
}

function failureOrSuccess(timestamp) {
  const roll = random();
  const id = Math.floor(random() * 400);
  if (roll < 0.7)
    return {
      method: pick(['GET', 'GET', 'POST']),
      url: pick(['/', '/api/products', `/api/products/${id}`, '/static/js/main.js', '/static/css/app.css']),
      status: pick([200, 200, 201, 204]),
      contentType: 'application/json',
      body: '{"ok":true}',
      timestamp,
    };
  if (roll < 0.8) return {method: 'GET', url: pick(['/login', '/old-page', '/static/js/main.js']), status: pick([301, 302, 304]), timestamp};
  if (roll < 0.86)
    return {
      method: 'GET',
      url: pick(['/favicon.ico', '/static/js/main.js.map', '/main.abc123.hot-update.json', '/sockjs-node/info?t=1', 'ws://localhost:3000/ws']),
      status: 404,
      contentType: 'text/html',
      body: '<h1>Not Found</h1>',
      timestamp,
    };
  if (roll < 0.92)
    return {
      method: 'GET',
      url: `/api/users/${id}?expand=orders`,
      status: pick([404, 401, 422]),
      contentType: 'application/json',
      body: JSON.stringify({message: `user ${id} not found`}),
      timestamp,
    };
  if (roll < 0.97)
    return {
      method: pick(['GET', 'POST']),
      url: pick(['/api/orders', '/api/cart', '/api/search?q=shoes']),
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({error: {message: 'database is locked', code: 'SQLITE_BUSY'}}),
      timestamp,
    };
  if (roll < 0.99) return {method: 'GET', url: '/reports/monthly', status: pick([500, 502]), contentType: 'text/html; charset=utf-8', body: HTML_500, timestamp};
  return {method: 'POST', url: '/api/checkout', status: 0, error: 'connect ECONNREFUSED 127.0.0.1:4000', timestamp};
}

function proxyRecords(id, httpCount) {
  const http = [];
  for (let index = 0; index < httpCount; index += 1) http.push(httpEntry(NOW - (httpCount - index) * 300));
  const js = Array.from({length: 100}, (_, index) => ({
    message: pick(["TypeError: Cannot read properties of null (reading 'focus')", 'ReferenceError: user is not defined']),
    stack:
      'TypeError: x\n    at Array.map (<anonymous>)\n    at List (http://localhost:3000/src/List.tsx:8:21)\n    at renderWithHooks (http://localhost:3000/node_modules/.vite/deps/react-dom.js:1:2)',
    ...pick(PAGES),
    timestamp: NOW - index * 5_000 + 150,
  }));
  const custom = Array.from({length: 100}, (_, index) => ({
    level: pick(['error', 'warn', 'info', 'log']),
    message: 'checkout widget failed',
    page: 'http://localhost:3000/cart',
    timestamp: NOW - index * 7_000,
  }));
  const diagnostics = Array.from({length: 50}, (_, index) => ({
    level: pick(['error', 'warning', 'info']),
    category: 'upstream',
    message: 'target refused the connection',
    timestamp: NOW - index * 11_000,
  }));
  return {id, http, js, custom, diagnostics};
}

const proxies = [proxyRecords('app', 4000), proxyRecords('admin', 3500), proxyRecords('docs', 2500)];
const sources = {
  processAlerts: processAlerts(failingTraces.slice(-400)),
  proxies,
  processIds: ['web', 'api', 'worker', 'docs'],
};

function measure(run) {
  const times = [];
  for (let turn = 0; turn < WARMUP + RUNS; turn += 1) {
    const start = process.hrtime.bigint();
    run();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (turn >= WARMUP) times.push(ms);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return {p50: at(0.5), p99: at(0.99)};
}

const coldStart = process.hrtime.bigint();
const first = queryErrors(sources, {}, NOW);
const coldMs = Number(process.hrtime.bigint() - coldStart) / 1e6;
console.log(
  `store: ${sources.processAlerts.length} process alerts, ${sources.proxies.reduce((sum, proxy) => sum + proxy.http.length, 0)} HTTP entries over ${sources.proxies.length} proxies; ${queryIncidents(sources, NOW).length} distinct incidents, first get_errors returned ${first.length}`,
);
console.log(`first query (every response body parsed once): ${coldMs.toFixed(2)} ms`);
const narrow = measure(() => queryErrors(sources, {since: '5m', include_warnings: false, limit: 10}, NOW));
console.log(`get_errors since=5m include_warnings=false: p50 ${narrow.p50.toFixed(3)} ms, p99 ${narrow.p99.toFixed(3)} ms`);
const {p50, p99} = measure(() => queryErrors(sources, {}, NOW));
console.log(`get_errors in-process: p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms (target p99 < ${TARGET_P99_MS} ms) ${p99 < TARGET_P99_MS ? 'PASS' : 'FAIL'}`);
const incidents = measure(() => queryIncidents(sources, NOW));
const stories = queryIncidents(sources, NOW).filter((incident) => incident.story).length;
const join = measure(() => joinStories(sources, {scope: {}, cutoff: 0}));
console.log(
  `get_incidents in-process (${stories} incidents with a story): p50 ${incidents.p50.toFixed(3)} ms, p99 ${incidents.p99.toFixed(3)} ms (target p99 < ${TARGET_P99_MS} ms) ${incidents.p99 < TARGET_P99_MS ? 'PASS' : 'FAIL'}`,
);
console.log(`  of which the story join (page error + failing request + server exception): p50 ${join.p50.toFixed(3)} ms, p99 ${join.p99.toFixed(3)} ms`);
