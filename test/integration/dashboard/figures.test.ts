// The dashboard's figures from a real kit server's /metrics (the reader on SQLite, over a socket),
// read by collectMetrics as the dashboard reads them: rates and the status mix from counters read
// twice, percentiles from the histogram, and a server that goes away or answers garbage.
import {createServer, type Server} from 'node:http';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startReaderServer, type ReaderServer} from '../../../servers/reader/index.js';
import {collectMetrics} from '../../../source/metrics/collect.js';
import type {MetricsSource} from '../../../source/metrics/types.js';
import {frameFromSnapshots} from '../../../source/dashboard/frame-from-figures.js';

let dir: string;
let server: ReaderServer;
let garbage: Server;
let garbageUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-dash-figures-'));
  server = await startReaderServer({port: 0, db: join(dir, 'reader.sqlite'), poll: false});
  garbage = createServer((_request, response) => response.writeHead(200, {'content-type': 'text/plain'}).end('<html>hello</html>\n'));
  await new Promise<void>((done) => garbage.listen(0, '127.0.0.1', done));
  const address = garbage.address();
  garbageUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/metrics`;
});
afterAll(async () => {
  await server?.close();
  await new Promise((done) => garbage?.close(done));
  rmSync(dir, {recursive: true, force: true});
});

const get = async (path: string) => (await fetch(new URL(path, server.url))).status;

describe('dashboard figures from a served /metrics', () => {
  it('counts the requests between two reads, by status class, with latency percentiles', async () => {
    const source: MetricsSource = {name: 'reader', kind: 'reader', url: new URL('/metrics', server.url).href};
    const before = await collectMetrics({sources: [source]});
    for (let index = 0; index < 5; index++) expect(await get('/api/v1/health')).toBe(200);
    for (let index = 0; index < 3; index++) expect(await get('/api/v1/no-such-route')).toBe(404);
    const after = await collectMetrics({sources: [source]});
    const frame = frameFromSnapshots(before, after);
    const reader = frame.servers[0]!;
    expect(reader.state).toBe('up');
    // The 8 requests, plus the first read of /metrics itself (counted when it was answered).
    expect(reader.status).toEqual({'2xx': 6, '3xx': 0, '4xx': 3, '5xx': 0});
    expect(reader.requestsPerSecond! * ((after.at - before.at) / 1000)).toBeCloseTo(9, 5);
    expect(reader.latency!.p50).toBeGreaterThan(0);
    expect(reader.latency!.p50).toBeLessThanOrEqual(reader.latency!.p95);
    expect(reader.latency!.p95).toBeLessThanOrEqual(reader.latency!.p99);
    const metrics = await (await fetch(source.url)).text();
    const counted = [...metrics.matchAll(/^http_requests_total\{[^}]*\} (\d+)$/gm)].reduce((total, match) => total + Number(match[1]), 0);
    // The total the chart's label shows is the counter as read (the read above adds its own request).
    expect(reader.requestsTotal).toBe(counted - 1);
    expect(frame.processes.map((entry) => entry.name)).toEqual(['reader']);
    expect(frame.processes[0]!.memoryMb).toBeGreaterThan(1);
  });

  it('shows a source answering something else as garbage and one that does not answer as stopped', async () => {
    const snapshot = await collectMetrics({
      sources: [
        {name: 'gateway', kind: 'gateway', url: garbageUrl},
        {name: 'graphql', kind: 'graphql', url: 'http://127.0.0.1:1/metrics'},
      ],
    });
    const frame = frameFromSnapshots(undefined, snapshot);
    expect(frame.servers.map((entry) => [entry.source.name, entry.state])).toEqual([
      ['gateway', 'garbage'],
      ['graphql', 'stopped'],
    ]);
    expect(frame.servers[0]!.error).toMatch(/Prometheus text format/);
  });
});
