// The service registry as the CLI, the TUI and the daemon use it, and `serve` writing it: real
// files under a private WORKBENCH_HOME, real HTTP servers on 127.0.0.1, a real full disk (/dev/full).
import {closeSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeFileSync, writeSync} from 'node:fs';
import {createServer, type Server} from 'node:http';
import {connect} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, expect, it} from 'vitest';
import {announceService, findService, readServiceEntry, servicePath, servicesDir, withdrawService} from '../../../source/services/registry.js';
import {startReaderServer} from '../../../servers/reader/index.js';
import {serve} from '../../../servers/kit/index.js';

let dir: string;
const servers: Server[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-registry-'));
  process.env.WORKBENCH_HOME = join(dir, 'home');
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  delete process.env.WORKBENCH_HOME;
  rmSync(dir, {recursive: true, force: true});
});

/** A server whose /health answers `status` (or never, for null). */
async function healthServer(status: number | null): Promise<string> {
  const server = createServer((request, response) => {
    if (status === null) return;
    response.writeHead(request.url === '/health' ? status : 404).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as {port: number};
  return `http://127.0.0.1:${address.port}`;
}

function fullDisk(_fd: number, bytes: Buffer): void {
  const full = openSync('/dev/full', 'w');
  try {
    writeSync(full, bytes);
  } finally {
    closeSync(full);
  }
}

const refused = (url: string) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

it('an announced server that answers its health check is found; the entry is 0600 in a 0700 folder', async () => {
  const url = await healthServer(200);
  const entry = announceService({name: 'reader', url, health: `${url}/health`, db: null});
  expect(entry).toMatchObject({name: 'reader', url, pid: process.pid, db: null});
  expect(statSync(servicesDir()).mode & 0o777).toBe(0o700);
  expect(statSync(servicePath('reader')).mode & 0o777).toBe(0o600);
  expect(await findService('reader')).toEqual(entry);
});

it('an entry whose server does not answer, answers an error, or whose process is gone is not a running server', async () => {
  const silent = await healthServer(null);
  announceService({name: 'reader', url: silent, health: `${silent}/health`});
  expect(await findService('reader', 200)).toBeUndefined();

  const failing = await healthServer(503);
  announceService({name: 'reader', url: failing, health: `${failing}/health`});
  expect(await findService('reader')).toBeUndefined();

  const healthy = await healthServer(200);
  // A pid that no process has (above the kernel's pid_max).
  announceService({name: 'reader', url: healthy, health: `${healthy}/health`, pid: 2 ** 22 + 1});
  expect(readServiceEntry('reader')).toBeDefined();
  expect(await findService('reader')).toBeUndefined();
});

it('a missing, empty or malformed entry reads as none', async () => {
  expect(await findService('reader')).toBeUndefined();
  announceService({name: 'reader', url: 'http://127.0.0.1:1', health: 'http://127.0.0.1:1/health'});
  writeFileSync(servicePath('reader'), '');
  expect(readServiceEntry('reader')).toBeUndefined();
  writeFileSync(servicePath('reader'), '{"url": 5}');
  expect(readServiceEntry('reader')).toBeUndefined();
});

it('withdrawing removes the entry only while it is still ours', () => {
  announceService({name: 'reader', url: 'http://127.0.0.1:1', health: 'http://127.0.0.1:1/health', pid: 1});
  withdrawService('reader');
  expect(existsSync(servicePath('reader'))).toBe(true);
  withdrawService('reader', 1);
  expect(existsSync(servicePath('reader'))).toBe(false);
});

it('a full disk when announcing is one clear error and leaves no file, empty or not', () => {
  expect(() => announceService({name: 'reader', url: 'http://127.0.0.1:1', health: 'http://127.0.0.1:1/health'}, {writeBytes: fullDisk})).toThrow(
    expect.objectContaining({code: 'disk_full', message: expect.stringMatching(/services\/reader\.json: the disk is full/)}),
  );
  expect(readdirSync(servicesDir())).toEqual([]);
});

it('serve: a full disk during start closes the server again and leaves no registry file', async () => {
  let url = '';
  const failure = serve({
    name: 'reader',
    host: '127.0.0.1',
    healthPath: '/api/v1/health',
    stop: new Promise(() => {}),
    stdout: () => {},
    stderr: () => {},
    writeBytes: fullDisk,
    start: async () => {
      const server = await startReaderServer({port: 0, db: join(dir, 'reader.sqlite'), poll: false});
      url = server.url;
      return server;
    },
  });
  await expect(failure).rejects.toMatchObject({code: 'disk_full'});
  expect(readdirSync(servicesDir())).toEqual([]);
  expect(await refused(url)).toBe(true);
});

it('serve: announces, says where it listens and logs, warns off loopback, and withdraws on stop', async () => {
  let stop!: (why: string) => void;
  const out: string[] = [];
  const err: string[] = [];
  const logFile = join(dir, 'home', 'logs', 'reader.log');
  const running = serve({
    name: 'reader',
    host: '127.0.0.1',
    healthPath: '/api/v1/health',
    logFile,
    stop: new Promise((resolve) => (stop = resolve)),
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    start: () => startReaderServer({port: 0, db: join(dir, 'reader.sqlite'), poll: false, logFile}),
  });
  const entry = await (async () => {
    for (let attempt = 0; attempt < 100; attempt++) {
      const found = await findService('reader', 1000);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('reader never announced itself');
  })();
  expect(out).toEqual([`reader listening on ${entry.url}\n`]);
  expect(err).toEqual([`requests are logged to ${logFile}\n`]);
  expect(entry).toMatchObject({health: `${entry.url}/api/v1/health`, log: logFile});
  expect(statSync(logFile).mode & 0o777).toBe(0o600);
  stop('test');
  expect(await running).toBe('test');
  expect(existsSync(servicePath('reader'))).toBe(false);
  expect(await refused(entry.url)).toBe(true);
});

it('serve warns that a non-loopback address exposes an API without authentication', async () => {
  const err: string[] = [];
  // The warning comes before listening; an address this machine does not have stops it there.
  await expect(
    serve({
      name: 'reader',
      host: '0.0.0.0',
      healthPath: '/',
      stderr: (text) => err.push(text),
      stdout: () => {},
      stop: new Promise(() => {}),
      start: async () => {
        throw new Error('not started');
      },
    }),
  ).rejects.toThrow('not started');
  expect(err.join('')).toMatch(/^warning: reader listens on 0\.0\.0\.0, which other machines may reach; its API has no authentication/);
});
