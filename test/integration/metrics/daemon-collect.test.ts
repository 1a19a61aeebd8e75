// The daemon's metrics endpoint with a real supervised process (a pty child), and collectMetrics
// over the service registry: the daemon, a real reader server, a stopped source and a garbage one.
import {createServer, request, type Server} from 'node:http';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startReaderServer, type ReaderServer} from '../../../servers/reader/index.js';
import {daemonRegistry, startMetricsEndpoint, type MetricsEndpoint} from '../../../source/daemon/metrics-endpoint.js';
import {createProxyManager} from '../../../source/devproxy/create-manager.js';
import {collectMetrics, metricsSources} from '../../../source/metrics/collect.js';
import {figures} from '../../../source/metrics/figures.js';
import {parseText} from '../../../source/metrics/parse-text.js';
import {Supervisor} from '../../../source/processes/supervisor.js';
import {announceService, readServiceEntry} from '../../../source/services/registry.js';
import {parseWithPython} from '../../helpers/prometheus-parser.js';
import {requirePackage} from '../../helpers/system-package.js';

const hasPythonParser = !requirePackage('python3-prometheus-client', {for: "the daemon's /metrics read back by Debian's Prometheus parser"});

let dir: string;
let supervisor: Supervisor;
let proxies: ReturnType<typeof createProxyManager>;
let endpoint: MetricsEndpoint;
let reader: ReaderServer;
let garbage: Server;
let garbageUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-daemon-metrics-'));
  process.env.WORKBENCH_HOME = join(dir, 'home');
  supervisor = new Supervisor();
  supervisor.start({id: 'sleeper', cmd: `${process.execPath} -e "setInterval(() => {}, 1000)"`, cwd: dir});
  proxies = createProxyManager();
  endpoint = await startMetricsEndpoint(daemonRegistry(supervisor, proxies));
  reader = await startReaderServer({port: 0, db: join(dir, 'reader.sqlite'), poll: false});
  announceService({name: 'reader', url: reader.url, health: `${reader.url}/api/v1/health`});
  // Answers HTML where metrics should be: a port now held by something else.
  garbage = createServer((_request, response) => response.writeHead(200, {'content-type': 'text/plain'}).end('<html>not metrics</html>\n'));
  await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
  garbageUrl = `http://127.0.0.1:${(garbage.address() as {port: number}).port}`;
});
afterAll(async () => {
  await endpoint?.close();
  await proxies?.stopAll();
  await supervisor?.stopAll();
  await reader?.close();
  await new Promise((resolve) => garbage?.close(resolve));
  delete process.env.WORKBENCH_HOME;
  rmSync(dir, {recursive: true, force: true});
});

function get(url: string, host?: string): Promise<{status: number; body: string}> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {headers: host ? {host} : {}}, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({status: response.statusCode ?? 0, body}));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('the daemon endpoint', () => {
  it('is announced in the service registry as daemon, on loopback', () => {
    expect(readServiceEntry('daemon')).toMatchObject({url: endpoint.url, health: `${endpoint.url}/health`, pid: process.pid});
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('exposes CPU and memory of the supervised process, the alert ring and its own process', async () => {
    const answer = await get(`${endpoint.url}/metrics`);
    expect(answer.status).toBe(200);
    const families = parseText(answer.body);
    const value = (name: string, labels: Record<string, string> = {}) =>
      families.find((family) => family.name === name)?.samples.find((sample) => Object.entries(labels).every(([key, text]) => sample.labels[key] === text))?.value;
    expect(value('workbench_process_resident_memory_bytes', {process: 'sleeper'})).toBeGreaterThan(1024 * 1024);
    expect(value('workbench_process_cpu_seconds', {process: 'sleeper'})).toBeGreaterThanOrEqual(0);
    expect(value('workbench_alert_ring_capacity')).toBe(500);
    expect(value('workbench_alert_ring_entries')).toBe(0);
    expect(value('process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it.skipIf(!hasPythonParser)("is read the same by Debian's Prometheus parser (python3-prometheus-client)", async () => {
    const answer = await get(`${endpoint.url}/metrics`);
    expect(parseWithPython(answer.body).some((sample) => sample.name === 'workbench_process_resident_memory_bytes' && sample.labels.process === 'sleeper')).toBe(true);
  });

  it('refuses a foreign Host and answers unknown paths and writes in JSON', async () => {
    const foreign = await get(`${endpoint.url}/metrics`, 'evil.example');
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({error: {code: 'host_not_allowed'}});
    expect((await get(`${endpoint.url}/nope`)).status).toBe(404);
  });
});

describe('dev proxies on the daemon endpoint', () => {
  it("counts each proxy's forwarded requests by proxy name, method and status, with a latency histogram", async () => {
    // The garbage server answers 200 to every path: a dev server enough for the proxy.
    const proxy = await proxies.start({id: 'web', target: garbageUrl});
    for (let i = 0; i < 3; i++) expect((await get(`${proxy.url}/page/${i}`)).status).toBe(200);
    const families = parseText((await get(`${endpoint.url}/metrics`)).body);
    const requests = families.find((family) => family.name === 'http_requests_total')!.samples;
    expect(requests).toEqual([{name: 'http_requests_total', labels: {proxy: 'web', route: '*', method: 'GET', status: '200'}, value: 3}]);
    const count = families.find((family) => family.name === 'http_request_duration_seconds')!.samples.find((sample) => sample.name.endsWith('_count'));
    expect(count).toMatchObject({labels: {proxy: 'web', route: '*', method: 'GET'}, value: 3});
  });
});

describe('collectMetrics', () => {
  it('finds the daemon and the reader in the registry and reads both', async () => {
    expect(metricsSources().map((source) => source.name)).toEqual(['daemon', 'reader']);
    const snapshot = await collectMetrics();
    expect(snapshot.sources.map((source) => [source.source.name, source.state])).toEqual([
      ['daemon', 'up'],
      ['reader', 'up'],
    ]);
  });

  it('calls a source that does not answer stopped and one that answers something else garbage, without throwing', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as {port: number}).port;
    await new Promise((resolve) => closed.close(resolve));
    const snapshot = await collectMetrics({
      sources: [
        {name: 'reader', kind: 'reader', url: `http://127.0.0.1:${port}/metrics`},
        {name: 'gateway', kind: 'gateway', url: `${garbageUrl}/metrics`},
        {name: 'graphql', kind: 'graphql', url: `${reader.url}/api/v1/health`},
      ],
    });
    expect(snapshot.sources.map((source) => source.state)).toEqual(['stopped', 'garbage', 'garbage']);
    expect(snapshot.sources[1]).toMatchObject({error: expect.stringMatching(/something other than the Prometheus text format: line 1: expected a metric name/)});
  });

  it('turns two reads into figures: the reader requests counted between them', async () => {
    const before = await collectMetrics();
    for (let i = 0; i < 4; i++) await get(`${reader.url}/api/v1/health`);
    const after = await collectMetrics();
    const result = figures(before, after);
    const row = result.http.find((http) => http.name === 'reader');
    // The four health calls, plus the reader's own /metrics read between the reads.
    expect(row?.statuses['2xx']).toBe(5);
    expect(row?.p50).not.toBeNull();
    expect(result.alertRing).toEqual({entries: 0, capacity: 500});
    expect(result.processes.map((process) => process.name)).toEqual(expect.arrayContaining(['sleeper', 'reader']));
  });
});
