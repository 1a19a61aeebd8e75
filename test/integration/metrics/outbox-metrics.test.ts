// The GraphQL server's CDC outbox backlog on /metrics (workbench_outbox_pending_events), counted
// on scrape, on SQLite, PostgreSQL and MariaDB; a model without an outbox has no such gauge.
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/start-server.js';
import {outboxDdl} from '../../../source/gql/events/outbox-contract.js';
import {openGqlService} from '../../../source/gql/service.js';
import type {UserContext} from '../../../source/gql/types.js';
import {parseText} from '../../../source/metrics/parse-text.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';

const databases = await gqlDatabases();
const user: UserContext = {claims: {sub: 'ann'}, roles: [], auditKey: 'ann', anonymous: false};

function schemaOf(fixture: GqlFixture): string {
  if (fixture.provider === 'sqlite') return 'main';
  if (fixture.provider === 'postgres') return 'public';
  return fixture.database;
}

async function backlog(server: GraphqlServer): Promise<number | undefined> {
  const answer = await server.app.inject({method: 'GET', url: '/metrics'});
  expect(answer.statusCode).toBe(200);
  return parseText(answer.body).find((family) => family.name === 'workbench_outbox_pending_events')?.samples[0]?.value;
}

describe.each(databases)('outbox backlog on /metrics ($kind)', (database) => {
  const maybe = database.unavailable ? it.skip : it;
  let fixture: GqlFixture | undefined;
  let db: Knex | undefined;
  let withOutbox: GraphqlServer | undefined;
  let without: GraphqlServer | undefined;

  beforeAll(async () => {
    if (database.unavailable) return;
    fixture = await database.createEmpty();
    db = knex(fixture.knexConfig);
    const schema = schemaOf(fixture);
    await db.schema.createTable('notes', (t) => {
      t.string('code', 40).primary();
    });
    for (const statement of outboxDdl(fixture.provider, schema, 'wb_outbox')) await db.raw(statement);
    const rules = [`:root { outbox-table: ${schema}.wb_outbox; }`, `${schema}.notes { emit-events: insert; }`];
    const quiet = {playground: {js: '', css: ''}, warn: () => undefined, port: 0};
    withOutbox = await startGraphqlServer({service: await openGqlService({...settingsFor(fixture, rules), disableAuth: true}, {poolMax: 2}), ...quiet});
    without = await startGraphqlServer({service: await openGqlService({...settingsFor(fixture, []), disableAuth: true}, {poolMax: 2}), ...quiet});
  });
  afterAll(async () => {
    await withOutbox?.close();
    await without?.close();
    await db?.destroy();
    await fixture?.drop();
  });

  maybe('counts the events not yet delivered, read when scraped', async () => {
    expect(await backlog(withOutbox!)).toBe(0);
    for (let i = 0; i < 3; i++) await withOutbox!.service.execute({query: `mutation { notes(insert: {code: "n${i}"}) }`, user});
    expect(await backlog(withOutbox!)).toBe(3);
  });

  maybe('is absent when the model has no outbox', async () => {
    expect(await backlog(without!)).toBeUndefined();
  });
});
