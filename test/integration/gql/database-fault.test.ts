import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest';
import {openGqlService} from '../../../source/gql/service.js';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {gqlDatabases, type GqlFixture} from '../../helpers/gql-databases.js';
import {gqlTestSettings} from '../../helpers/gql-test-service.js';

const postgres = (await gqlDatabases()).find((database) => database.kind === 'postgres')!;

describe.skipIf(postgres.unavailable !== null)('a PostgreSQL database that goes away mid-service', () => {
  let server: GraphqlServer;
  let admin: Knex;
  let chinook: GqlFixture;

  beforeAll(async () => {
    chinook = await postgres.createChinook();
    admin = knex({client: 'pg', connection: 'postgres://postgres@127.0.0.1:5432/test', pool: {min: 0, max: 1}});
    const service = await openGqlService(gqlTestSettings({provider: 'postgres', connectionString: chinook.connectionString, disableAuth: true}), {poolMax: 2});
    server = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: () => {}});
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await admin?.raw('alter database ?? allow_connections true', [chinook.database]).catch(() => undefined);
    await admin?.destroy();
    await chinook?.drop();
  });

  const EXPECTED = {artist: {data: [{name: 'AC/DC'}, {name: 'Accept'}]}};
  const artists = async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({query: '{ artist(limit: 2, sort: [artist_id_asc]) { data { name } } }'}),
    });
    return {status: response.status, body: (await response.json()) as {data?: unknown; errors?: Array<{message: string; extensions?: {code?: string}}>}};
  };

  it('answers a GraphQL error while the database is gone, stays up, and answers again once it is back', async () => {
    expect((await artists()).body.data).toEqual(EXPECTED);

    // The database refuses new sessions and its open ones (the server's pool) are cut.
    await admin.raw('alter database ?? allow_connections false', [chinook.database]);
    await admin.raw('select pg_terminate_backend(pid) from pg_stat_activity where datname = ? and pid <> pg_backend_pid()', [chinook.database]);

    const gone = await artists();
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({artist: null});
    expect(gone.body.errors).toHaveLength(1);
    expect(gone.body.errors![0]!.extensions?.code).toBe('database_unavailable');
    expect(gone.body.errors![0]!.message).toMatch(/database is unavailable|cannot be reached/);
    expect(gone.body.errors![0]!.message).not.toMatch(/select /i);

    expect((await fetch(`${server.url}/_workbench/health`)).status).toBe(200);

    await admin.raw('alter database ?? allow_connections true', [chinook.database]);
    await vi.waitFor(async () => expect((await artists()).body.data).toEqual(EXPECTED), {timeout: 15_000, interval: 200});
  });
});
