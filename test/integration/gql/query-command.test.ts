import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import knex from 'knex';
import {runGqlQuery, type GqlQueryDeps} from '../../../source/cli/gql/query-task.js';
import {openGqlService} from '../../../source/gql/service.js';
import {announceService, withdrawService} from '../../../source/services/registry.js';
import {HEALTH_PATH, startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {CLAIM_RULES, createArtistDatabase, gqlTestSettings} from '../../helpers/gql-test-service.js';

let dir: string;
let server: GraphqlServer;
const previousHome = process.env.WORKBENCH_HOME;
// The in-process database (artist, note); the server runs on a copy of its own with one more artist.
let inProcessDatabase: string;
const settings = () => gqlTestSettings({disableAuth: true, source: join(dir, 'appsettings.json'), connectionString: inProcessDatabase, metadata: CLAIM_RULES});
const opened: string[] = [];

// In-process: a fresh real service for the settings each time (what the command does by default).
function deps(extra: Partial<GqlQueryDeps> = {}): GqlQueryDeps {
  return {
    loadSettings: () => settings(),
    openService: async (loaded) => {
      opened.push(loaded.source);
      return openGqlService(loaded);
    },
    findServer: async () => undefined,
    ...extra,
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-gql-query-'));
  process.env.WORKBENCH_HOME = join(dir, 'home');
  inProcessDatabase = await createArtistDatabase(join(dir, 'in-process.sqlite'));
  const served = join(dir, 'served.sqlite');
  const servedDatabase = await createArtistDatabase(served);
  const db = knex({client: 'better-sqlite3', connection: {filename: served}, useNullAsDefault: true});
  await db('artist').insert({name: 'Only on the server'});
  await db.destroy();
  const service = await openGqlService({...settings(), connectionString: servedDatabase});
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
    const result = await runGqlQuery('query ($n: Int) { artist(limit: $n, sort: [id_asc]) { data { name } } }', {variables: '{"n": 2}'}, deps());
    expect(result).toEqual({stdout: `${JSON.stringify({artist: {data: [{name: 'AC/DC'}, {name: 'Accept'}]}}, null, 2)}\n`, stderr: '', exitCode: 0});
  });

  it('--raw prints the result exactly', async () => {
    const result = await runGqlQuery('{ artist(limit: 1, sort: [id_asc]) { data { id } total } }', {raw: true}, deps());
    expect(JSON.parse(result.stdout!)).toEqual({data: {artist: {data: [{id: 1}], total: 3}}});
    expect(result.exitCode).toBe(0);
  });

  it('--claims runs as a user with those claims, in-process even when a server runs', async () => {
    let asked = false;
    // `note` rows are filtered by the `sub` claim; `_rawQuery` needs the role gql-admin.
    const query = '{ note(sort: [id_asc]) { data { body } } _rawQuery(sql: "select 2 as two") }';
    const result = await runGqlQuery(query, {claims: '{"sub": "ada", "roles": ["gql-admin"]}'}, deps({findServer: async () => ((asked = true), `${server.url}/graphql`)}));
    expect(asked).toBe(false);
    expect(JSON.parse(result.stdout!)).toEqual({note: {data: [{body: 'ada: first'}, {body: 'ada: second'}]}, _rawQuery: [{two: 2}]});
    expect(result.exitCode).toBe(0);

    const bob = await runGqlQuery('{ note { data { body } } }', {claims: '{"sub": "bob"}'}, deps());
    expect(JSON.parse(bob.stdout!)).toEqual({note: {data: [{body: 'bob: only'}]}});

    // Without --claims the user is anonymous: no `sub`, so the filtered table is closed.
    const anonymous = await runGqlQuery('{ note { data { body } } }', {}, deps());
    expect(anonymous).toMatchObject({exitCode: 1, stderr: 'error: note is filtered on owner by the "sub" claim, which the request does not carry (at note)\n'});
  });

  it('errors one per line on stderr, exit 1; garbage flags are refused before anything runs', async () => {
    const unknown = await runGqlQuery('{ xyzzy }', {}, deps());
    expect(unknown).toMatchObject({stdout: '', exitCode: 1});
    expect(unknown.stderr).toBe('error: Cannot query field "xyzzy" on type "Query".\n');
    const syntax = await runGqlQuery('{ artist { data { id ', {}, deps());
    expect(syntax.exitCode).toBe(1);
    expect(syntax.stderr).toMatch(/^error: Syntax Error: Expected Name, found <EOF>\.\n$/);
    const raw = await runGqlQuery('{ xyzzy }', {raw: true}, deps());
    expect(raw.exitCode).toBe(1);
    expect(JSON.parse(raw.stdout!).errors[0].message).toMatch(/Cannot query field "xyzzy"/);
    const before = opened.length;
    await expect(runGqlQuery('  ', {}, deps())).rejects.toThrow(/the query is empty/);
    await expect(runGqlQuery('{ artist { data { id } } }', {variables: '{n: 1}'}, deps())).rejects.toThrow(/--variables is not JSON/);
    await expect(runGqlQuery('{ artist { data { id } } }', {variables: '[1]'}, deps())).rejects.toThrow(/--variables must be a JSON object/);
    await expect(runGqlQuery('{ artist { data { id } } }', {claims: 'sub=ada'}, deps())).rejects.toThrow(/--claims is not JSON/);
    await expect(runGqlQuery('{ artist { data { id } } }', {settings: ' '}, deps())).rejects.toThrow(/--settings is empty/);
    expect(opened.length).toBe(before);
  });
});

describe('gql query against the running server', () => {
  it('uses the server registered for the same settings file, and in-process otherwise', async () => {
    announceService({name: 'graphql', url: server.url, health: `${server.url}${HEALTH_PATH}`, settings: settings().source, path: '/graphql', auth: false});
    const before = opened.length;
    const served = await runGqlQuery('{ artist { data { name } } }', {}, {...deps(), findServer: undefined});
    expect(opened.length).toBe(before);
    expect(served.stdout).toContain('Only on the server');

    const other = await runGqlQuery('{ artist { data { name } } }', {}, {...deps(), loadSettings: () => ({...settings(), source: join(dir, 'other.json')}), findServer: undefined});
    expect(opened.length).toBe(before + 1);
    expect(other.stdout).not.toContain('Only on the server');

    const errors = await runGqlQuery('{ xyzzy }', {}, {...deps(), findServer: undefined});
    expect(errors).toMatchObject({exitCode: 1, stderr: 'error: Cannot query field "xyzzy" on type "Query".\n'});
  });
});
