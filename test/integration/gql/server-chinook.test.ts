import {serverAudits} from 'graphql-http';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startOidcIssuer, type OidcIssuer} from '../../../fixtures/oidc-issuer/issuer.js';
import {openGqlService} from '../../../source/gql/service.js';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {gqlDatabases, snakeCase, type GqlFixture} from '../../helpers/gql-databases.js';
import {gqlTestSettings} from '../../helpers/gql-test-service.js';

// The server over the real service (introspected model, generated schema, the read path) on
// Chinook, on each database the machine has.
const databases = await gqlDatabases();
let issuer: OidcIssuer;
beforeAll(async () => {
  issuer = await startOidcIssuer();
});
afterAll(async () => {
  await issuer?.close();
});

describe.each(databases)('$kind', (database) => {
  let chinook: GqlFixture;
  let open: GraphqlServer;
  let secured: GraphqlServer;

  beforeAll(async () => {
    if (database.unavailable !== null) return;
    chinook = await database.createChinook();
    const settings = {provider: database.kind, connectionString: chinook.connectionString} as const;
    open = await startGraphqlServer({
      service: await openGqlService(gqlTestSettings({...settings, disableAuth: true}), {poolMax: 2}),
      port: 0,
      playground: {js: '', css: ''},
      warn: () => {},
    });
    secured = await startGraphqlServer({
      service: await openGqlService(gqlTestSettings({...settings, jwt: {authority: issuer.authority, audience: 'workbench-api'}}), {poolMax: 2}),
      port: 0,
      playground: {js: '', css: ''},
    });
  }, 180_000);

  afterAll(async () => {
    await open?.close();
    await secured?.close();
    await chinook?.drop();
  });

  const post = (server: GraphqlServer, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/graphql`, {method: 'POST', headers: {'content-type': 'application/json', ...headers}, body: JSON.stringify(body)});

  it.skipIf(database.unavailable !== null)('passes graphql-http’s audits with no error', async () => {
    const results = await Promise.all(serverAudits({url: `${open.url}/graphql`}).map(async (audit) => ({name: audit.name, result: await audit.fn()})));
    expect(results.filter(({result}) => result.status === 'error').map(({name}) => name)).toEqual([]);
  });

  it.skipIf(database.unavailable !== null)('answers a nested query with a token, and shows its SQL under X-Gql-Debug', async () => {
    const token = await issuer.mint({sub: 'ada'});
    // The PostgreSQL script spells Chinook's names in snake_case.
    const n = (name: string) => (database.kind === 'postgres' ? snakeCase(name) : name);
    const query = `{ ${n('Artist')}(limit: 1, sort: [${n('ArtistId')}_asc]) { data { ${n('Name')} ${n('Album')}(sort: [${n('AlbumId')}_asc]) { ${n('Title')} } } } }`;
    const response = await post(secured, {query}, {authorization: `Bearer ${token}`, 'x-gql-debug': '1'});
    expect(response.status).toBe(200);
    const body = (await response.json()) as {data: unknown; extensions: {sql: {count: number; statements: Array<{sql: string}>}}};
    expect(body.data).toEqual({
      [n('Artist')]: {data: [{[n('Name')]: 'AC/DC', [n('Album')]: [{[n('Title')]: 'For Those About To Rock We Salute You'}, {[n('Title')]: 'Let There Be Rock'}]}]},
    });
    expect(body.extensions.sql.count).toBeGreaterThanOrEqual(1);
    expect(body.extensions.sql.count).toBeLessThanOrEqual(2);
    expect(body.extensions.sql.statements[0]!.sql).toMatch(/select/i);
    const refused = await post(secured, {query}, {authorization: `Bearer ${await issuer.mint({sub: 'ada'}, {audience: 'other'})}`});
    expect(refused.status).toBe(401);
  });
});
