// `workbench metrics [--json]` through the built CLI (node scripts/build.mjs): nothing running,
// a real reader server found through the service registry, and bad flags.
import {rmSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, expect, it} from 'vitest';
import {startReaderServer, type ReaderServer} from '../../../servers/reader/index.js';
import {announceService} from '../../../source/services/registry.js';
import type {Figures} from '../../../source/metrics/figures.js';
import {eventually, killDaemon, makeSandbox, runCli, type Sandbox} from '../../helpers/cli.js';
import {existsSync} from 'node:fs';

let sandbox: Sandbox;
let reader: ReaderServer | undefined;

beforeAll(() => {
  sandbox = makeSandbox('wb-metrics-cli-');
});
afterAll(async () => {
  await reader?.close();
  killDaemon(sandbox.home);
  delete process.env.WORKBENCH_HOME;
  rmSync(sandbox.dir, {recursive: true, force: true});
});

it('says what to start when nothing runs, and exits 0', async () => {
  const result = await runCli(['metrics'], {env: sandbox.env});
  expect(result).toMatchObject({code: 0, stderr: ''});
  expect(result.stdout).toBe('nothing is running: start workbench serve reader|gateway|graphql, or a dev server\n');
  const json = await runCli(['metrics', '--json'], {env: sandbox.env});
  expect(json.code).toBe(0);
  expect(JSON.parse(json.stdout)).toMatchObject({sources: [], http: [], message: expect.stringContaining('nothing is running')});
});

it('prints the running reader: its requests between the two reads, as JSON and as a table', async () => {
  process.env.WORKBENCH_HOME = sandbox.home;
  reader = await startReaderServer({port: 0, db: join(sandbox.dir, 'reader.sqlite'), poll: false});
  announceService({name: 'reader', url: reader.url, health: `${reader.url}/api/v1/health`});
  const json = await runCli(['metrics', '--json'], {env: sandbox.env});
  expect(json.code).toBe(0);
  const result = JSON.parse(json.stdout) as Figures;
  expect(result.sources).toEqual([{name: 'reader', state: 'up'}]);
  // The first read's own GET /metrics is the one request between the reads, and the one counted so far.
  expect(result.http).toEqual([expect.objectContaining({name: 'reader', requestsTotal: 1, statuses: {'2xx': 1, '3xx': 0, '4xx': 0, '5xx': 0}})]);
  expect(result.processes[0]).toMatchObject({name: 'reader'});
  expect(result.processes[0]!.residentBytes).toBeGreaterThan(0);

  const table = await runCli(['metrics'], {env: sandbox.env});
  expect(table.code).toBe(0);
  expect(table.stdout).toMatch(/^SOURCE\s+STATE\nreader\s+up\n/);
  expect(table.stdout).toMatch(/\nHTTP\s+REQUESTS\s+REQ\/S\s+P50\s+P95\s+P99\s+2XX\s+3XX\s+4XX\s+5XX\nreader\s+/);
});

it('finds the real daemon through the registry: its supervised process, and the entry gone when it stops', async () => {
  const started = await runCli(['run', '--cmd', `${process.execPath} -e "setInterval(() => {}, 1000)"`, '--id', 'idler'], {env: sandbox.env});
  expect(started.code).toBe(0);
  const daemonEntry = join(sandbox.home, 'services', 'daemon.json');
  await eventually(() => existsSync(daemonEntry));
  const result = JSON.parse((await runCli(['metrics', '--json'], {env: sandbox.env})).stdout) as Figures;
  expect(result.sources).toContainEqual({name: 'daemon', state: 'up'});
  expect(result.processes.find((process) => process.name === 'idler')?.residentBytes).toBeGreaterThan(0);
  expect(result.alertRing).toEqual({entries: 0, capacity: 500});
  expect((await runCli(['daemon', 'stop'], {env: sandbox.env})).code).toBe(0);
  await eventually(() => !existsSync(daemonEntry));
});

it.each([['--bogus'], ['--json=yes'], ['extra']])('refuses %s with one line and exit 1', async (flag) => {
  const result = await runCli(['metrics', flag], {env: sandbox.env});
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/unknown option|too many arguments|unknown command/);
  expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
});
