import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {artistService, gqlTestSettings} from '../../helpers/gql-test-service.js';
import {testDatabases} from '../../helpers/test-databases.js';

const postgres = (await testDatabases()).find((database) => database.kind === 'postgres')!;

describe.skipIf(postgres.unavailable !== null)('a PostgreSQL database that goes away mid-service', () => {
  let server: GraphqlServer;
  let admin: Knex;
  let name: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const created = await postgres.createDatabase();
    drop = created.drop;
    name = new URL(created.connection).pathname.slice(1);
    admin = knex({client: 'pg', connection: created.connection.replace(/\/[^/]+$/, '/test'), pool: {min: 0, max: 1}});
    const service = await artistService(
      {client: 'pg', connection: created.connection, pool: {min: 0, max: 2}, acquireConnectionTimeout: 2000},
      gqlTestSettings({provider: 'postgres', disableAuth: true}),
    );
    server = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: () => {}});
  });

  afterAll(async () => {
    await server?.close();
    await admin?.raw('alter database ?? allow_connections true', [name]).catch(() => undefined);
    await admin?.destroy();
    await drop?.();
  });

  const artists = async () => {
    const response = await fetch(`${server.url}/graphql`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({query: '{ artist { name } }'})});
    return {status: response.status, body: (await response.json()) as {data?: unknown; errors?: Array<{message: string; extensions?: {code?: string}}>}};
  };

  it('answers a GraphQL error while the database is gone, stays up, and answers again once it is back', async () => {
    expect((await artists()).body.data).toEqual({artist: [{name: 'AC/DC'}, {name: 'Accept'}, {name: 'Aerosmith'}]});

    // The database refuses new sessions and its open ones (the server's pool) are cut.
    await admin.raw('alter database ?? allow_connections false', [name]);
    await admin.raw('select pg_terminate_backend(pid) from pg_stat_activity where datname = ? and pid <> pg_backend_pid()', [name]);

    const gone = await artists();
    expect(gone.status).toBe(200);
    expect(gone.body.data).toBeNull();
    expect(gone.body.errors).toHaveLength(1);
    expect(gone.body.errors![0]!.extensions?.code).toBe('database_unavailable');
    expect(gone.body.errors![0]!.message).toMatch(/^the database cannot be reached \(.+\); retry when it is back$/);
    expect(gone.body.errors![0]!.message).not.toMatch(/select /i);

    const health = await fetch(`${server.url}/_workbench/health`);
    expect(health.status).toBe(200);

    await admin.raw('alter database ?? allow_connections true', [name]);
    await vi.waitFor(async () => expect((await artists()).body.data).toEqual({artist: [{name: 'AC/DC'}, {name: 'Accept'}, {name: 'Aerosmith'}]}), {timeout: 15_000, interval: 200});
  });
});
