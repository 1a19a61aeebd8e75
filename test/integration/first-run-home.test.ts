import {chmodSync, lstatSync, mkdirSync, readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {killDaemon, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import {startServeProcess} from '../helpers/serve-process.js';

// A new user's first command: WORKBENCH_HOME (here `<sandbox>/share/workbench`, parents missing
// too, as ~/.local/share/workbench is on a fresh account) does not exist. Every server and every
// command that opens a store or the daemon makes it 0700, its stores and state files 0600, and
// succeeds — through the built CLI (node scripts/build.mjs).

let sandbox: Sandbox | undefined;
let home: string | undefined;

afterEach(async () => {
  // The sandbox's cleanup stops the daemon of its own home, not of this one.
  if (home) killDaemon(home);
  await sandbox?.cleanup();
  sandbox = undefined;
  home = undefined;
});

function newHome() {
  sandbox = makeSandbox('wb-first-run-');
  home = join(sandbox.dir, 'share', 'workbench');
  return {home, env: {...sandbox.env, WORKBENCH_HOME: home}};
}

/** Every folder under the home 0700 and every file 0600 (sockets aside); the files' names, for what each command must have made. */
function expectPrivate(home: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    expect((lstatSync(dir).mode & 0o777).toString(8), dir).toBe('700');
    for (const entry of readdirSync(dir, {withFileTypes: true})) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        expect((lstatSync(path).mode & 0o777).toString(8), path).toBe('600');
        files.push(path.slice(home.length + 1));
      }
    }
  };
  walk(home);
  return files;
}

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+|Acquire connection error|node_modules/);

describe('the first run on a home that does not exist yet', () => {
  const commands: Array<{args: string[]; makes: string; stdout: RegExp}> = [
    {args: ['gql', 'query', '{ _empty }'], makes: 'graphql.sqlite', stdout: /"_empty": null/},
    {args: ['gql', 'sample'], makes: 'graphql.sqlite', stdout: /^loaded the Chinook sample into .+graphql\.sqlite \(SQLite\): 11 tables, 15,607 rows in /},
    {args: ['feeds', 'list'], makes: 'reader.sqlite', stdout: /no feeds yet/},
    {args: ['articles', 'list'], makes: 'reader.sqlite', stdout: /no articles/},
    {args: ['lists', 'list'], makes: 'reader.sqlite', stdout: /no lists yet/},
    {args: ['ingestors', 'list'], makes: 'reader.sqlite', stdout: /no ingestors yet/},
    {args: ['reader', 'password', '--generate'], makes: 'reader.sqlite', stdout: /\S/},
    {args: ['daemon', 'start'], makes: 'daemon.pid', stdout: /\S/},
    {args: ['get-errors'], makes: 'daemon.pid', stdout: /=== Errors \(0\) ===/},
  ];

  for (const {args, makes, stdout} of commands) {
    it(`workbench ${args.join(' ')}`, async () => {
      const {home, env} = newHome();
      const result = await runCli(args, {env, timeoutMs: 30_000});
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(stdout);
      noStack(result.stderr);
      expect(expectPrivate(home)).toContain(makes);
    });
  }

  for (const {name, makes} of [
    {name: 'reader', makes: 'reader.sqlite'},
    {name: 'gateway', makes: 'gateway.sqlite'},
    {name: 'graphql', makes: 'graphql.sqlite'},
  ]) {
    it(`workbench serve ${name}`, async () => {
      const {home, env} = newHome();
      const server = await startServeProcess({name, env, home, cwd: sandbox!.dir});
      const files = expectPrivate(home);
      expect(files).toContain(makes);
      expect(files).toContain(join('services', `${name}.json`));
      expect(await server.stop()).toBe(0);
      noStack(server.output());
    });
  }

  it('a home and graphql.sqlite made looser by someone else are tightened to 0700 and 0600', async () => {
    const {home, env} = newHome();
    mkdirSync(home, {recursive: true, mode: 0o755});
    chmodSync(home, 0o755);
    writeFileSync(join(home, 'graphql.sqlite'), '', {mode: 0o644});
    chmodSync(join(home, 'graphql.sqlite'), 0o644);
    const result = await runCli(['gql', 'query', '{ _empty }'], {env});
    expect(result.code, result.stderr).toBe(0);
    expect(expectPrivate(home)).toEqual(['graphql.sqlite']);
  });

  it('an empty GraphQL database says how to get data, and after `gql sample` the README query answers', async () => {
    const {env} = newHome();
    const query = ['gql', 'query', '{ Artist(limit: 5) { data { Name } } }'];
    const before = await runCli(query, {env});
    expect(before.code).toBe(1);
    expect(before.stderr).toBe(
      'error: Cannot query field "Artist" on type "Query".\n' +
        'hint: the database has no tables: `workbench gql sample` loads the Chinook sample into it, or point the service at yours (--settings, or ConnectionStrings__gqlservice)\n',
    );
    const sample = await runCli(['gql', 'sample'], {env});
    expect(sample.code, sample.stderr).toBe(0);
    expect(sample.stdout).toMatch(/\ntry: workbench gql query '\{ Artist\(limit: 5\) \{ data \{ Name \} \} \}'\n$/);
    const after = await runCli(query, {env});
    expect(after.code, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout)).toEqual({Artist: {data: ['AC/DC', 'Accept', 'Aerosmith', 'Alanis Morissette', 'Alice In Chains'].map((Name) => ({Name}))}});
  });
});
