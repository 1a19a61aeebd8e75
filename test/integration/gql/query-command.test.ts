import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {runGqlQuery, type GqlQueryDeps} from '../../../source/cli/gql/query-task.js';
import {announceService, withdrawService} from '../../../source/services/registry.js';
import {HEALTH_PATH, startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {artistService, gqlTestSettings} from '../../helpers/gql-test-service.js';

let dir: string;
let server: GraphqlServer;
const previousHome = process.env.WORKBENCH_HOME;
const settings = () => gqlTestSettings({disableAuth: true, source: join(dir, 'appsettings.json')});
const opened: string[] = [];

// In-process: a fresh service on its own SQLite file each time (what openGqlService does for the settings).
function deps(extra: Partial<GqlQueryDeps> = {}): GqlQueryDeps {
  return {
    loadSettings: () => settings(),
    openService: async (loaded) => {
      opened.push(loaded.source);
      return artistService({client: 'better-sqlite3', connection: {filename: join(dir, `in-process-${opened.length}.sqlite`)}, useNullAsDefault: true}, loaded);
    },
    findServer: async () => undefined,
    ...extra,
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-gql-query-'));
  process.env.WORKBENCH_HOME = join(dir, 'home');
  const service = await artistService({client: 'better-sqlite3', connection: {filename: join(dir, 'served.sqlite')}, useNullAsDefault: true}, settings());
  await service.db('artist').insert({name: 'Only on the server'});
  server = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: () => {}});
});

afterAll(async () => {
  withdrawService('graphql');
  await server?.close();
  if (previousHome === undefined) delete process.env.WORKBENCH_HOME;
  else process.env.WORKBENCH_HOME = previousHome;
  rmSync(dir, {recursive: true, force: true});
});

describe('gql query in-process', () => {
  it('prints the data as indented JSON and exits 0', async () => {
    const result = await runGqlQuery('query ($n: Int) { artist(limit: $n) { name } }', {variables: '{"n": 2}'}, deps());
    expect(result).toEqual({stdout: `${JSON.stringify({artist: [{name: 'AC/DC'}, {name: 'Accept'}]}, null, 2)}\n`, stderr: '', exitCode: 0});
  });

  it('--raw prints the result exactly', async () => {
    const result = await runGqlQuery('{ artist(limit: 1) { id } }', {raw: true}, deps());
    expect(JSON.parse(result.stdout!)).toEqual({data: {artist: [{id: 1}]}});
    expect(result.exitCode).toBe(0);
  });

  it('--claims runs as a user with those claims, in-process even when a server runs', async () => {
    let asked = false;
    const result = await runGqlQuery(
      '{ me { sub roles anonymous } }',
      {claims: '{"sub": "ada", "roles": ["gql-admin"]}'},
      deps({findServer: async () => ((asked = true), `${server.url}/graphql`)}),
    );
    expect(asked).toBe(false);
    expect(JSON.parse(result.stdout!)).toEqual({me: {sub: 'ada', roles: ['gql-admin'], anonymous: 'false'}});
  });

  it('errors one per line on stderr, exit 1; garbage flags are refused before anything runs', async () => {
    const unknown = await runGqlQuery('{ nope }', {}, deps());
    expect(unknown).toMatchObject({stdout: '', exitCode: 1});
    expect(unknown.stderr).toBe('error: Cannot query field "nope" on type "Query".\n');
    const syntax = await runGqlQuery('{ artist { id ', {}, deps());
    expect(syntax.exitCode).toBe(1);
    expect(syntax.stderr).toMatch(/^error: Syntax Error: Expected Name, found <EOF>\.\n$/);
    const raw = await runGqlQuery('{ nope }', {raw: true}, deps());
    expect(raw.exitCode).toBe(1);
    expect(JSON.parse(raw.stdout!).errors[0].message).toMatch(/Cannot query field "nope"/);
    const before = opened.length;
    await expect(runGqlQuery('  ', {}, deps())).rejects.toThrow(/the query is empty/);
    await expect(runGqlQuery('{ artist { id } }', {variables: '{n: 1}'}, deps())).rejects.toThrow(/--variables is not JSON/);
    await expect(runGqlQuery('{ artist { id } }', {variables: '[1]'}, deps())).rejects.toThrow(/--variables must be a JSON object/);
    await expect(runGqlQuery('{ artist { id } }', {claims: 'sub=ada'}, deps())).rejects.toThrow(/--claims is not JSON/);
    await expect(runGqlQuery('{ artist { id } }', {settings: ' '}, deps())).rejects.toThrow(/--settings is empty/);
    expect(opened.length).toBe(before);
  });
});

describe('gql query against the running server', () => {
  it('uses the server registered for the same settings file, and in-process otherwise', async () => {
    announceService({name: 'graphql', url: server.url, health: `${server.url}${HEALTH_PATH}`, settings: settings().source, path: '/graphql', auth: false});
    const before = opened.length;
    const served = await runGqlQuery('{ artist { name } }', {}, {...deps(), findServer: undefined});
    expect(opened.length).toBe(before);
    expect(served.stdout).toContain('Only on the server');

    const other = await runGqlQuery(
      '{ artist { name } }',
      {},
      {...deps(), loadSettings: () => gqlTestSettings({disableAuth: true, source: join(dir, 'other.json')}), findServer: undefined},
    );
    expect(opened.length).toBe(before + 1);
    expect(other.stdout).not.toContain('Only on the server');

    const errors = await runGqlQuery('{ nope }', {}, {...deps(), findServer: undefined});
    expect(errors).toMatchObject({exitCode: 1, stderr: 'error: Cannot query field "nope" on type "Query".\n'});
  });
});
