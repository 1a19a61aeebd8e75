// The environment failing under a running reader: a full disk answers 507 disk_full, a database
// that goes away 503 database_unavailable, each with one line in the server log. The disk is
// SQLite's own "database or disk is full" (max_page_count); the database is a real PostgreSQL
// reached through a TCP relay that the test cuts.
import {closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync} from 'node:fs';
import {createServer, connect, type Server, type Socket} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildReaderApp} from '../../../servers/reader/index.js';
import {createReaderService} from '../../../source/feeds/service/index.js';
import {writeOpmlFile} from '../../../source/cli/feeds/opml-file.js';
import {testDatabases, type TestDatabase} from '../../helpers/test-databases.js';

let dir: string;
let postgres: TestDatabase | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-faults-'));
  postgres = (await testDatabases()).find((database) => database.kind === 'postgres' && database.unavailable === null);
});
afterAll(() => {
  rmSync(dir, {recursive: true, force: true});
});

const logLines = (path: string, code: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.includes(code));

it('a full disk under the store is 507 disk_full, logged in one line', async () => {
  const logFile = join(dir, 'full.log');
  const service = await createReaderService({connection: join(dir, 'full.sqlite'), deps: {}});
  const app = buildReaderApp({service, logFile});
  try {
    // SQLite refuses to grow the file past its current pages: SQLITE_FULL, as on a full disk.
    const [{page_count: pages}] = await service.store.db.raw('PRAGMA page_count');
    await service.store.db.raw(`PRAGMA max_page_count = ${pages}`);
    let answer;
    for (let index = 0; index < 500; index++) {
      answer = await app.inject({method: 'POST', url: '/api/v1/lists', payload: {title: `list ${index} ${'x'.repeat(150)}`, visibility: 'public'}});
      if (answer.statusCode !== 201) break;
    }
    expect(answer!.statusCode, answer!.body).toBe(507);
    expect(answer!.json()).toEqual({error: {code: 'disk_full', message: 'the server’s disk is full; free some space and retry'}});
  } finally {
    await app.close();
    await service.close();
  }
  expect(logLines(logFile, 'disk_full')).toHaveLength(1);
  expect(logLines(logFile, 'disk_full')[0]).not.toMatch(/\\n\s+at /);
});

describe('a PostgreSQL store that goes away', () => {
  let relay: Server;
  const sockets = new Set<Socket>();

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => relay?.close(resolve));
  });

  it('answers 503 database_unavailable while it is gone, logged in one line per request', async (context) => {
    if (!postgres) return context.skip();
    const database = await postgres.create();
    // The relay: 127.0.0.1:<port> → 127.0.0.1:5432, until closed.
    relay = createServer((client) => {
      const upstream = connect(5432, '127.0.0.1');
      sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayed = database.connection.replace(':5432/', `:${(relay.address() as {port: number}).port}/`);
    const logFile = join(dir, 'pg.log');
    const service = await createReaderService({connection: relayed});
    const app = buildReaderApp({service, logFile});
    try {
      expect((await app.inject({method: 'GET', url: '/api/v1/feeds'})).statusCode).toBe(200);
      relay.close();
      for (const socket of sockets) socket.destroy();
      for (const path of ['/api/v1/feeds', '/api/v1/lists']) {
        const answer = await app.inject({method: 'GET', url: path});
        expect(answer.statusCode, answer.body).toBe(503);
        expect(answer.json()).toEqual({
          error: {
            code: 'database_unavailable',
            message: expect.stringMatching(
              /^the database cannot be reached \((Connection terminated unexpectedly|connect ECONNREFUSED 127\.0\.0\.1:\d+)\); retry when it is back$/,
            ),
          },
        });
      }
    } finally {
      await app.close();
      await service.close().catch(() => {});
      await database.drop();
    }
    expect(logLines(logFile, 'database_unavailable')).toHaveLength(2);
  }, 30_000);
});

it('a full disk during an OPML export keeps the previous file whole', async () => {
  const path = join(dir, 'backup.opml');
  writeFileSync(path, '<opml version="2.0">yesterday</opml>\n');
  const fullDisk = (_fd: number, bytes: Buffer) => {
    const full = openSync('/dev/full', 'w');
    try {
      writeSync(full, bytes);
    } finally {
      closeSync(full);
    }
  };
  await expect(writeOpmlFile(path, `<opml version="2.0">${'x'.repeat(200_000)}</opml>`, {writeBytes: fullDisk})).rejects.toMatchObject({
    code: 'disk_full',
    message: `cannot write ${path}: the disk is full (the previous file, if any, is unchanged)`,
  });
  expect(readFileSync(path, 'utf8')).toBe('<opml version="2.0">yesterday</opml>\n');
  await writeOpmlFile(path, '<opml version="2.0">today</opml>');
  expect(readFileSync(path, 'utf8')).toBe('<opml version="2.0">today</opml>\n');
});
