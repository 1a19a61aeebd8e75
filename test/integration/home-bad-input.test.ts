import {execFileSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {mkdirSync, mkdtempSync, readFileSync, rmdirSync, statSync, truncateSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {expectOneLineFailure, killDaemon, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import {startServeProcess} from '../helpers/serve-process.js';

// A home workbench cannot use: on a read-only file system, a file where the folder should be, a
// store file cut short. Each command and server says so in one line on stderr and exits 1 — no
// stack, no store lost or rewritten — through the built CLI.

let sandbox: Sandbox | undefined;
const mounts: string[] = [];

afterEach(async () => {
  while (mounts.length > 0) execFileSync('umount', [mounts.pop()!]);
  if (sandbox) killDaemon(sandbox.home);
  await sandbox?.cleanup();
  sandbox = undefined;
});

/** The commands and servers that open a store or the daemon in the home. */
const OPENERS: string[][] = [
  ['feeds', 'list'],
  ['ingestors', 'list'],
  ['reader', 'password', '--generate'],
  ['gql', 'query', '{ _empty }'],
  ['gql', 'sample'],
  ['daemon', 'start'],
  ['get-errors'],
  ['serve', 'reader', '--port', '0'],
  ['serve', 'gateway', '--port', '0'],
  ['serve', 'graphql', '--port', '0'],
];

// Root writes through permission bits (chmod 0555 stops nothing here): a read-only mount is the
// only real read-only folder, and mounting needs the capability. Probed once.
function mountProblem(): string | undefined {
  const probe = mkdtempSync(join(tmpdir(), 'wb-ro-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,mode=0700', 'tmpfs', probe], {stdio: 'pipe'});
    execFileSync('umount', [probe]);
    return undefined;
  } catch (error) {
    return ((error as {stderr?: Buffer}).stderr?.toString() || (error as Error).message).trim().split('\n')[0];
  } finally {
    rmdirSync(probe);
  }
}
const cannotMount = mountProblem();
if (cannotMount) {
  const message = `cannot mount a read-only file system here (${cannotMount}): the read-only home tests are SKIPPED`;
  if (process.env.WORKBENCH_REQUIRE_SERVICES) throw new Error(`${message} — and WORKBENCH_REQUIRE_SERVICES is set`);
  console.warn(`\n!!! ${message} !!!\n`);
}

const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

async function expectEach(env: NodeJS.ProcessEnv, commands: string[][], pattern: RegExp): Promise<void> {
  for (const args of commands) expectOneLineFailure(await runCli(args, {env, timeoutMs: 30_000}), pattern, `workbench ${args.join(' ')}`);
}

// The tests below run every opener in turn (a node start each): ten take 4 s here and 18 s on a
// loaded machine, so a test's time is the sum of theirs, not the 30 s default.
describe.skipIf(cannotMount !== undefined)('a home on a read-only file system', () => {
  it('a home that cannot be made there: one line naming the folder and the read-only file system', async () => {
    sandbox = makeSandbox('wb-ro-');
    const ro = join(sandbox.dir, 'ro');
    mkdirSync(ro);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,mode=0700', 'tmpfs', ro]);
    mounts.push(ro);
    const home = join(ro, 'share', 'workbench');
    await expectEach({...sandbox.env, WORKBENCH_HOME: home}, OPENERS, new RegExp(`${ro}/share.*: the file system is read-only \\(EROFS\\)`));
  }, 120_000);

  it('a home with its stores, mounted read-only: one line each, the stores as they were', async () => {
    sandbox = makeSandbox('wb-ro-');
    const source = join(sandbox.dir, 'source');
    const env = {...sandbox.env, WORKBENCH_HOME: join(source, 'home')};
    for (const args of [
      ['gql', 'sample'],
      ['feeds', 'list'],
      ['reader', 'password', '--generate'],
    ])
      expect((await runCli(args, {env})).code).toBe(0);
    const stores = ['graphql.sqlite', 'reader.sqlite'].map((name) => join(source, 'home', name));
    const before = stores.map(digest);
    const ro = join(sandbox.dir, 'ro');
    mkdirSync(ro);
    execFileSync('mount', ['--bind', source, ro]);
    mounts.push(ro);
    execFileSync('mount', ['-o', 'remount,bind,ro', ro]);
    await expectEach({...sandbox.env, WORKBENCH_HOME: join(ro, 'home')}, OPENERS, /: the file system is read-only \(EROFS\)$/m);
    expect(stores.map(digest)).toEqual(before);
  }, 120_000);
});

describe('a home that is a file', () => {
  it('every opener says so in one line and leaves the file alone', async () => {
    sandbox = makeSandbox('wb-file-home-');
    const home = join(sandbox.dir, 'workbench');
    writeFileSync(home, 'not a folder\n');
    await expectEach({...sandbox.env, WORKBENCH_HOME: home}, OPENERS, new RegExp(`^workbench: ${home} is a file, not a folder\\n$`));
    expect(readFileSync(home, 'utf8')).toBe('not a folder\n');
  }, 120_000);
});

describe('a store file cut short', () => {
  for (const {store, make, openers} of [
    {
      store: 'graphql.sqlite',
      make: ['gql', 'sample'],
      openers: [
        ['gql', 'query', '{ _empty }'],
        ['gql', 'sample'],
        ['gql', 'sample', '--force'],
        ['gql', 'check'],
        ['serve', 'graphql', '--port', '0'],
      ],
    },
    {
      store: 'reader.sqlite',
      make: ['feeds', 'list'],
      openers: [
        ['feeds', 'list'],
        ['reader', 'password', '--generate'],
        ['serve', 'reader', '--port', '0'],
      ],
    },
    {store: 'gateway.sqlite', make: ['serve', 'gateway'], openers: [['serve', 'gateway', '--port', '0']]},
  ]) {
    it(`${store}: "the database file … is damaged", and the file is left as it was`, async () => {
      sandbox = makeSandbox('wb-damaged-');
      const path = join(sandbox.home, store);
      // The gateway's store is made by the server's first start; the others by a command.
      if (make[0] === 'serve') expect(await (await startServeProcess({name: make[1]!, env: sandbox.env, home: sandbox.home})).stop()).toBe(0);
      else expect((await runCli(make, {env: sandbox.env})).code).toBe(0);
      truncateSync(path, Math.floor(statSync(path).size / 2));
      const before = digest(path);
      await expectEach(sandbox.env, openers, new RegExp(`^workbench: the database file ${path} is damaged \\(database disk image is malformed\\); it was left as it is`));
      expect(digest(path)).toBe(before);
    });
  }
});
