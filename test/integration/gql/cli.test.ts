import {spawn, type ChildProcess} from 'node:child_process';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {cliPath, eventually, makeSandbox, runCli, type Sandbox} from '../../helpers/cli.js';
import {gqlDatabases, type GqlFixture} from '../../helpers/gql-databases.js';

// The CLI as a user runs it (dist): `serve graphql` and `gql query` on a Chinook SQLite file.
let sandbox: Sandbox;
let chinook: GqlFixture;
let settingsFile: string;
let server: ChildProcess | undefined;
let serverOutput = '';

const QUERY = '{ Artist(limit: 2, sort: [ArtistId_asc]) { data { Name } } }';
const EXPECTED = {Artist: {data: [{Name: 'AC/DC'}, {Name: 'Accept'}]}};

beforeAll(async () => {
  sandbox = makeSandbox('wb-gql-cli-');
  const sqlite = (await gqlDatabases()).find((database) => database.kind === 'sqlite')!;
  chinook = await sqlite.createChinook();
  settingsFile = join(sandbox.dir, 'appsettings.json');
  writeFileSync(settingsFile, JSON.stringify({ConnectionStrings: {gqlservice: chinook.connectionString}, GqlService: {Provider: 'sqlite', DisableAuth: true}}));
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await chinook?.drop();
  await sandbox?.cleanup();
});

const gql = (args: string[]) => runCli(['gql', 'query', ...args], {env: sandbox.env, cwd: sandbox.dir, timeoutMs: 30_000});

describe('gql query in-process (no server running)', () => {
  it('prints the data as indented JSON', async () => {
    const result = await gql([QUERY, '--settings', settingsFile]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(EXPECTED);
  });

  it('garbage is one clear line and exit 1', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['', '--settings', settingsFile], /the query is empty/],
      [[QUERY, '--variables', '{id: 1}', '--settings', settingsFile], /--variables is not JSON/],
      [['{ Artist { data { Name }', '--settings', settingsFile], /^error: Syntax Error/m],
      [['{ NoSuchTable { data { x } } }', '--settings', settingsFile], /^error: Cannot query field "NoSuchTable" on type "Query"/m],
      [[QUERY, '--settings', join(sandbox.dir, 'missing.json')], /missing\.json/],
    ];
    for (const [args, message] of cases) {
      const result = await gql(args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr, args.join(' ')).not.toMatch(/\n\s+at /);
    }
  });
});

describe('serve graphql', () => {
  // Three cold starts of the CLI (the server, its health, gql query): a loaded machine needs more than 30 s.
  it('serves the settings’ database, warns that auth is off, and gql query uses it', {timeout: 90_000}, async () => {
    server = spawn(process.execPath, [cliPath, 'serve', 'graphql', '--settings', settingsFile, '--port', '0'], {
      env: sandbox.env,
      cwd: sandbox.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.setEncoding('utf8').on('data', (chunk: string) => (serverOutput += chunk));
    server.stderr!.setEncoding('utf8').on('data', (chunk: string) => (serverOutput += chunk));
    const entry = await eventually(async () => {
      if (server!.exitCode !== null) throw new Error(`serve graphql exited ${server!.exitCode}: ${serverOutput}`);
      const path = join(sandbox.home, 'services', 'graphql.json');
      if (!existsSync(path)) return undefined;
      const read = JSON.parse(readFileSync(path, 'utf8')) as {url: string; health: string; settings: string; path: string};
      return (await fetch(read.health)).ok ? read : undefined;
    }, 30_000);
    expect(serverOutput).toMatch(/warning: GqlService:DisableAuth is true/);
    expect(entry).toMatchObject({settings: settingsFile, path: '/graphql'});

    const page = await fetch(`${entry.url}/`);
    expect(await page.text()).toContain('/_workbench/playground/graphiql.js');
    expect((await fetch(`${entry.url}/_workbench/playground/graphiql.js`)).status).toBe(200);

    const result = await gql([QUERY, '--settings', settingsFile, '--raw']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({data: EXPECTED});
    const log = readFileSync(join(sandbox.home, 'logs', 'graphql.log'), 'utf8');
    expect(log).toMatch(/"msg":"POST \/graphql"/);

    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server!.kill('SIGTERM');
    await exited;
    expect(existsSync(join(sandbox.home, 'services', 'graphql.json'))).toBe(false);
  });
});
