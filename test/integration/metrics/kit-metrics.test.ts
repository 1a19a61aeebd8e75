// GET /metrics of a real kit server (the reader on SQLite, over a socket): requests counted by
// route pattern, histogram buckets that add up, the Host guard in front, and the text readable by
// Debian's Prometheus parser as well as ours.
import {request} from 'node:http';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, expect, it} from 'vitest';
import {startReaderServer, type ReaderServer} from '../../../servers/reader/index.js';
import {startFeedOrigin, type FeedOrigin} from '../../../fixtures/feed-origin/server.js';
import {parseText} from '../../../source/metrics/parse-text.js';
import type {MetricFamily} from '../../../source/metrics/types.js';
import {parseWithPython} from '../../helpers/prometheus-parser.js';
import {requirePackage} from '../../helpers/system-package.js';

const hasPythonParser = !requirePackage('python3-prometheus-client', {for: "/metrics read back by Debian's Prometheus parser"});

let dir: string;
let server: ReaderServer;
let origin: FeedOrigin;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-kit-metrics-'));
  server = await startReaderServer({port: 0, db: join(dir, 'reader.sqlite'), poll: false});
  origin = await startFeedOrigin();
});
afterAll(async () => {
  await server?.close();
  await origin?.close();
  rmSync(dir, {recursive: true, force: true});
});

/** A GET over the wire, with the Host header given (default the server's own). */
function get(path: string, host?: string): Promise<{status: number; type: string; body: string}> {
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {headers: host ? {host} : {}}, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({status: response.statusCode ?? 0, type: String(response.headers['content-type']), body}));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function family(families: MetricFamily[], name: string): MetricFamily {
  const found = families.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no family ${name}`);
  return found;
}

it('counts requests by route pattern, method and status, with latency buckets that add up', async () => {
  for (let i = 0; i < 3; i++) expect((await get('/api/v1/health')).status).toBe(200);
  expect((await get('/api/v1/articles/987654')).status).toBe(404);
  expect((await get('/api/v1/articles/123456')).status).toBe(404);
  expect((await get('/no/such/page?x=1')).status).toBe(404);

  const answer = await get('/metrics');
  expect(answer.status).toBe(200);
  expect(answer.type).toMatch(/^text\/plain; version=0\.0\.4/);
  const families = parseText(answer.body);
  const requests = family(families, 'http_requests_total');
  expect(requests.type).toBe('counter');
  const count = (labels: Record<string, string>) => requests.samples.find((sample) => JSON.stringify(sample.labels) === JSON.stringify(labels))?.value;
  expect(count({route: '/api/v1/health', method: 'GET', status: '200'})).toBe(3);
  expect(count({route: '/api/v1/articles/:id', method: 'GET', status: '404'})).toBe(2);
  expect(count({route: 'unmatched', method: 'GET', status: '404'})).toBe(1);
  // Bounded cardinality: no label holds a raw URL.
  const routes = requests.samples.map((sample) => sample.labels.route);
  expect(routes.some((route) => /\d{6}|\?/.test(route ?? ''))).toBe(false);

  const duration = family(families, 'http_request_duration_seconds');
  expect(duration.type).toBe('histogram');
  const health = duration.samples.filter((sample) => sample.labels.route === '/api/v1/health');
  const buckets = health.filter((sample) => sample.name.endsWith('_bucket'));
  expect(buckets.at(-1)).toMatchObject({labels: {le: '+Inf'}, value: 3});
  // Cumulative: each bucket holds at least the one before it.
  for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
  expect(health.find((sample) => sample.name === 'http_request_duration_seconds_count')?.value).toBe(3);
  expect(health.find((sample) => sample.name === 'http_request_duration_seconds_sum')?.value).toBeGreaterThan(0);

  // Process metrics of this server's process.
  expect(family(families, 'process_resident_memory_bytes').samples[0]!.value).toBeGreaterThan(0);
  expect(family(families, 'process_cpu_seconds_total').type).toBe('counter');
});

it.skipIf(!hasPythonParser)("is read the same by Debian's Prometheus parser (python3-prometheus-client)", async () => {
  const {body} = await get('/metrics');
  const samples = parseWithPython(body);
  const health = samples.find((sample) => sample.name === 'http_requests_total' && sample.labels.route === '/api/v1/health' && sample.labels.status === '200');
  expect(health).toMatchObject({family: 'http_requests', type: 'counter', value: 3});
  const ours = parseText(body).flatMap((found) => found.samples);
  expect(samples).toHaveLength(ours.length);
  const inf = samples.find((sample) => sample.name === 'http_request_duration_seconds_bucket' && sample.labels.le === '+Inf' && sample.labels.route === '/api/v1/health');
  expect(inf?.value).toBe(3);
});

it('refuses a foreign Host (DNS rebinding), as every other route of the kit', async () => {
  const answer = await get('/metrics', 'evil.example');
  expect(answer.status).toBe(403);
  expect(JSON.parse(answer.body)).toMatchObject({error: {code: 'host_not_allowed'}});
  expect((await get('/metrics', `localhost:${new URL(server.url).port}`)).status).toBe(200);
});

/** A JSON POST over inject (the feed fetches are what is measured here, not the wire). */
async function post(url: string, body?: unknown): Promise<{status: number; body: {id?: number}}> {
  const answer = await server.app.inject({method: 'POST', url, ...(body === undefined ? {} : {payload: body as object})});
  return {status: answer.statusCode, body: answer.json()};
}

it('counts the feed fetches by result: ok, not_modified (304), failure', async () => {
  const subscribed = await post('/api/v1/feeds', {url: `${origin.url}/gen/metered.xml?items=2`});
  expect(subscribed.status).toBe(201);
  expect((await post(`/api/v1/feeds/${subscribed.body.id}/refresh`)).status).toBe(200);
  expect((await post('/api/v1/feeds', {url: `${origin.url}/no-such-feed.xml`})).status).toBeGreaterThanOrEqual(400);
  const fetches = family(parseText((await get('/metrics')).body), 'workbench_feed_fetches_total');
  const byResult = Object.fromEntries(fetches.samples.map((sample) => [sample.labels.result, sample.value]));
  expect(byResult).toEqual({ok: 1, not_modified: 1, failure: 1});
});
