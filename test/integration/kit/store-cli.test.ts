// A store that cannot be opened, as users meet it on the command line: one clear line on stderr,
// exit 1, and nothing but JSON on stdout with --json (knex's own logger prints to stdout).
import {createServer} from 'node:net';
import {statSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, expect, it} from 'vitest';
import {makeSandbox, runCli, type Sandbox} from '../../helpers/cli.js';

let sandbox: Sandbox;
let closedPort: number;

beforeAll(async () => {
  sandbox = makeSandbox('wb-store-cli-');
  // A port nothing listens on: taken, then given back.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closedPort = (server.address() as {port: number}).port;
  await new Promise((resolve) => server.close(resolve));
});
afterAll(async () => {
  await sandbox?.cleanup();
});

const cli = (args: string[]) => runCli(args, {env: sandbox.env, timeoutMs: 30_000});

it.each(['postgres', 'mysql'])('an unreachable %s server: stdout is pure JSON, stderr one line, exit 1', async (scheme) => {
  const url = `${scheme}://root@127.0.0.1:${closedPort}/test`;
  const result = await cli(['feeds', 'list', '--db', url, '--json']);
  expect(result.code).toBe(1);
  expect(JSON.parse(result.stdout)).toEqual({error: `cannot open the reader database at ${url}: connect ECONNREFUSED 127.0.0.1:${closedPort}`});
  expect(result.stderr).toBe(`workbench: cannot open the reader database at ${url}: connect ECONNREFUSED 127.0.0.1:${closedPort}\n`);
  expect(result.stdout + result.stderr).not.toMatch(/Acquire connection error|\n\s+at /);

  const plain = await cli(['feeds', 'list', '--db', url]);
  expect(plain).toMatchObject({code: 1, stdout: ''});
  expect(plain.stderr).toMatch(/^workbench: cannot open the reader database at .+: connect ECONNREFUSED .+\n$/);
});

it('serve reader --db under /proc is one clear line and exit 1, not a hang', async () => {
  const result = await cli(['serve', 'reader', '--port', '0', '--db', '/proc/nope/x.sqlite']);
  expect(result).toEqual({code: 1, stdout: '', stderr: 'workbench: cannot create the folder /proc/nope: ENOENT\n'});
});

it('the default store is created 0600 in a 0700 home', async () => {
  const result = await cli(['feeds', 'list', '--json']);
  expect(result.code, result.stderr).toBe(0);
  expect(statSync(sandbox.home).mode & 0o777).toBe(0o700);
  expect(statSync(join(sandbox.home, 'reader.sqlite')).mode & 0o777).toBe(0o600);
});
