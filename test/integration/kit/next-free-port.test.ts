// A kit server asked for a port that is taken, with `nextFree` (`serve reader --next-free`, what
// the TUI starts its reader with): it takes the next free port itself, at the bind, so two starts
// that both found the same port free both come up. Real listeners on 127.0.0.1, a real CLI.
import {readFileSync} from 'node:fs';
import {createServer, type Server} from 'node:net';
import {join} from 'node:path';
import {afterEach, expect, it} from 'vitest';
import {startReaderServer, type ReaderServer} from '../../../servers/reader/index.js';
import {firstFreePort} from '../../../source/cli/ensure-reader.js';
import {eventually, makeSandbox, spawnCli, type Sandbox} from '../../helpers/cli.js';

const holders: Server[] = [];
const readers: ReaderServer[] = [];
let sandbox: Sandbox | undefined;

afterEach(async () => {
  await Promise.all(readers.splice(0).map((reader) => reader.close()));
  await Promise.all(holders.splice(0).map((holder) => new Promise((resolve) => holder.close(resolve))));
  await sandbox?.cleanup();
  sandbox = undefined;
});

/** A port some other program holds on 127.0.0.1. */
async function takenPort(): Promise<number> {
  const holder = createServer();
  holders.push(holder);
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  return (holder.address() as {port: number}).port;
}

const portOf = (url: string) => Number(new URL(url).port);

it('takes the next free port above a taken one, and without nextFree says the port is in use', async () => {
  sandbox = makeSandbox('wb-next-free-');
  const taken = await takenPort();
  await expect(startReaderServer({port: taken, db: join(sandbox.dir, 'a.sqlite'), poll: false})).rejects.toThrow(
    `127.0.0.1:${taken} is in use (another server?); choose another --port`,
  );
  const reader = await startReaderServer({port: taken, nextFree: true, db: join(sandbox.dir, 'b.sqlite'), poll: false});
  readers.push(reader);
  expect(portOf(reader.url)).toBeGreaterThan(taken);
  expect(portOf(reader.url)).toBeLessThan(taken + 20);
  expect((await fetch(`${reader.url}/api/v1/health`)).status).toBe(200);
});

it('two starts that found the same port free both come up, on two ports', async () => {
  sandbox = makeSandbox('wb-next-free-');
  const port = await firstFreePort(await takenPort());
  const both = await Promise.all(['a', 'b'].map((name) => startReaderServer({port, nextFree: true, db: join(sandbox!.dir, `${name}.sqlite`), poll: false})));
  readers.push(...both);
  expect(new Set(both.map((reader) => portOf(reader.url))).size).toBe(2);
  expect(both.map((reader) => portOf(reader.url))).toContain(port);
});

it('serve reader --next-free announces the port it took', async () => {
  sandbox = makeSandbox('wb-next-free-');
  const taken = await takenPort();
  const child = spawnCli(['serve', 'reader', '--port', String(taken), '--next-free'], {env: sandbox.env});
  try {
    const url = await eventually(() => {
      try {
        return (JSON.parse(readFileSync(join(sandbox!.home, 'services/reader.json'), 'utf8')) as {url: string}).url;
      } catch {
        return undefined;
      }
    }, 30_000);
    expect(portOf(url)).toBeGreaterThan(taken);
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});
