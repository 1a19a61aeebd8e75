// The GraphQL client's contract (source/gql/client): every face reaches the service through it, and
// a document answers with the same `--raw` JSON — byte for byte — whether a running server or the
// service in this process takes it. Each way runs on its own copy of Chinook, so both start equal
// and the mutations leave both equal.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startOidcIssuer, type OidcIssuer} from '../../../fixtures/oidc-issuer/issuer.js';
import {runGqlQuery} from '../../../source/cli/gql/query-task.js';
import {GQL_TOKEN_VARIABLE, openGqlClient} from '../../../source/gql/client/index.js';
import {openGqlService} from '../../../source/gql/service.js';
import type {GqlSettings} from '../../../source/gql/types.js';
import {announceService, withdrawService} from '../../../source/services/registry.js';
import {HEALTH_PATH, startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';

const AUDIENCE = 'workbench-api';
const dir = mkdtempSync(join(tmpdir(), 'wb-gql-contract-'));
const previousHome = process.env.WORKBENCH_HOME;
const fixtures: GqlFixture[] = [];
const servers: GraphqlServer[] = [];
let issuer: OidcIssuer;
// Per way: the settings of its own database, and its server (used only by the server way).
let inProcessSettings: GqlSettings;
let servedSettings: GqlSettings;
let server: GraphqlServer;
// The same two with tokens checked.
let securedInProcess: GqlSettings;
let securedServer: GraphqlServer;

async function chinook(): Promise<GqlFixture> {
  const sqlite = (await gqlDatabases()).find((database) => database.kind === 'sqlite')!;
  const fixture = await sqlite.createChinook();
  fixtures.push(fixture);
  return fixture;
}

async function serve(settings: GqlSettings): Promise<GraphqlServer> {
  const started = await startGraphqlServer({service: await openGqlService(settings), port: 0, playground: {js: '', css: ''}, warn: () => undefined});
  servers.push(started);
  return started;
}

beforeAll(async () => {
  process.env.WORKBENCH_HOME = join(dir, 'home');
  issuer = await startOidcIssuer();
  const jwt = {jwt: {authority: issuer.authority, audience: AUDIENCE}, disableAuth: false};
  inProcessSettings = settingsFor(await chinook());
  servedSettings = settingsFor(await chinook());
  server = await serve(servedSettings);
  securedInProcess = {...settingsFor(await chinook()), ...jwt};
  securedServer = await serve({...settingsFor(await chinook()), ...jwt});
});

afterAll(async () => {
  withdrawService('graphql');
  delete process.env[GQL_TOKEN_VARIABLE];
  for (const started of servers) await started.close();
  await issuer?.close();
  for (const fixture of fixtures) await fixture.drop();
  if (previousHome === undefined) delete process.env.WORKBENCH_HOME;
  else process.env.WORKBENCH_HOME = previousHome;
  rmSync(dir, {recursive: true, force: true});
});

/** `workbench gql query --raw` one way: in-process on `settings`, or through `through` (a running server). */
async function raw(document: Document, settings: GqlSettings, through?: GraphqlServer): Promise<string> {
  const result = await runGqlQuery(
    document.query,
    {raw: true, ...(document.variables ? {variables: JSON.stringify(document.variables)} : {})},
    {
      loadSettings: () => settings,
      openService: (loaded) => openGqlService(loaded),
      findServer: async () => (through ? `${through.url}/graphql` : undefined),
    },
  );
  expect(result.stderr ?? '').toBe('');
  return result.stdout!;
}

interface Document {
  name: string;
  query: string;
  variables?: Record<string, unknown>;
  /** What the answer must show, so that two empty answers cannot pass. */
  expect: (answer: {data?: unknown; errors?: Array<{message: string; locations?: unknown; path?: unknown; extensions?: Record<string, unknown>}>}) => void;
}

const errorCode = (code: string) => (answer: Parameters<Document['expect']>[0]) => expect(answer.errors?.[0]?.extensions?.code).toBe(code);
const noErrors = (answer: Parameters<Document['expect']>[0]) => expect(answer.errors).toBeUndefined();

const DEEP = '{ Genre(limit: -1) { data { Track(limit: -1) { Genre { Track(limit: -1) { Genre { Track(limit: -1) { Genre { Name } } } } } } } } }';

// In order: reads, every mutation kind (each way's database changes alike), then errors of each kind.
const DOCUMENTS: Document[] = [
  {name: 'a read', query: '{ Artist(limit: 3) { data { ArtistId Name } total } }', expect: noErrors},
  {name: 'a read with variables and a link', query: 'query ($n: Int) { Album(limit: $n) { data { Title Artist { Name } } } }', variables: {n: 2}, expect: noErrors},
  // Before the writes: the estimate counts the rows, which the batch below adds to.
  {name: 'a query over the cost bound', query: DEEP, expect: errorCode('query_too_costly')},
  {name: 'an insert', query: 'mutation { Artist(insert: {Name: "Contract artist"}) }', expect: noErrors},
  {name: 'an update', query: 'mutation { Artist(update: {ArtistId: 1, Name: "AC-DC"}) }', expect: noErrors},
  {name: 'an upsert', query: 'mutation { Artist(upsert: {ArtistId: 2, Name: "Accepted"}) }', expect: noErrors},
  {name: 'a delete', query: 'mutation { Artist(delete: {ArtistId: 276}) }', expect: noErrors},
  {name: 'a batch', query: 'mutation { Genre_batch(actions: [{insert: {Name: "Contract genre"}}, {update: {GenreId: 1, Name: "Rock!"}}]) }', expect: noErrors},
  {name: 'the writes read back', query: '{ Artist(limit: 2) { data { ArtistId Name } total } Genre(limit: 1) { data { Name } total } }', expect: noErrors},
  // Playlist 1 holds track 3402 already: the key (PlaylistId, TrackId) is taken.
  {name: 'a unique-key conflict', query: 'mutation { PlaylistTrack(insert: {PlaylistId: 1, TrackId: 3402}) }', expect: errorCode('conflict')},
  {
    name: 'a validation error',
    query: '{ Artist(limit: "three") { data { Name } } }',
    expect: (answer) => expect(answer.errors?.[0]?.locations).toBeDefined(),
  },
  {
    name: 'a variable of the wrong type',
    query: 'query ($n: Int) { Artist(limit: $n) { data { Name } } }',
    variables: {n: 'x'},
    expect: (answer) => expect(answer.errors).toHaveLength(1),
  },
  {name: 'a syntax error', query: '{ Artist(', expect: (answer) => expect(answer.errors?.[0]?.message).toMatch(/^Syntax Error/)},
  {name: 'an unknown field', query: '{ Artist { data { Nope } } }', expect: (answer) => expect(answer.errors?.[0]?.message).toMatch(/Nope/)},
];

describe('the same --raw JSON in-process and through a running server', () => {
  it.each(DOCUMENTS.map((document) => [document.name, document] as const))('%s', async (_name, document) => {
    const inProcess = await raw(document, inProcessSettings);
    const overHttp = await raw(document, servedSettings, server);
    document.expect(JSON.parse(inProcess));
    expect(inProcess).toBe(overHttp);
  });

  it('a refused token and an accepted one, with tokens checked', async () => {
    const read: Omit<Document, 'expect'> = {name: 'a read', query: '{ Artist(limit: 1) { data { Name } } }'};
    const expired = await issuer.mint({sub: 'ada'}, {audience: AUDIENCE, expiresInSeconds: -3600});
    const valid = await issuer.mint({sub: 'ada'}, {audience: AUDIENCE});
    try {
      process.env[GQL_TOKEN_VARIABLE] = expired;
      const refused = await raw({...read, expect: noErrors}, securedInProcess);
      expect(JSON.parse(refused).errors[0].extensions.code).toBe('unauthorized');
      expect(refused).toBe(await raw({...read, expect: noErrors}, securedInProcess, securedServer));
      process.env[GQL_TOKEN_VARIABLE] = valid;
      const accepted = await raw({...read, expect: noErrors}, securedInProcess);
      expect(JSON.parse(accepted).data.Artist.data).toHaveLength(1);
      expect(accepted).toBe(await raw({...read, expect: noErrors}, securedInProcess, securedServer));
    } finally {
      delete process.env[GQL_TOKEN_VARIABLE];
    }
  });
});

describe('one rule for a running server, else in-process', () => {
  const announce = (fields: Record<string, unknown>) =>
    announceService({name: 'graphql', url: server.url, health: `${server.url}${HEALTH_PATH}`, path: '/graphql', settings: servedSettings.source, auth: false, ...fields});

  it('takes the announced server of the same settings, and the service in-process for other settings or with claims', async () => {
    announce({});
    const opened: string[] = [];
    const openService = async (settings: GqlSettings) => (opened.push(settings.source), openGqlService(settings));
    const served = await openGqlClient(servedSettings, {openService});
    expect(served.where).toBe(`${server.url}/graphql`);
    await served.close();
    const other = await openGqlClient({...inProcessSettings, source: 'other settings'}, {openService});
    expect(other.where).toBe('in-process · other settings');
    await other.close();
    const withClaims = await openGqlClient(servedSettings, {openService, claims: {sub: 'ada'}});
    expect(withClaims.where).toBe(`in-process · ${servedSettings.source}`);
    await withClaims.close();
    expect(opened).toEqual(['other settings', servedSettings.source]);
    withdrawService('graphql');
  });

  it('a server that checks tokens is taken only by a caller holding one', async () => {
    announce({auth: true});
    const openService = (settings: GqlSettings) => openGqlService(settings);
    const anonymous = await openGqlClient(servedSettings, {openService, token: undefined});
    expect(anonymous.where).toBe(`in-process · ${servedSettings.source}`);
    await anonymous.close();
    const holder = await openGqlClient(servedSettings, {openService, token: 'some token'});
    expect(holder.where).toBe(`${server.url}/graphql`);
    await holder.close();
    withdrawService('graphql');
  });
});
