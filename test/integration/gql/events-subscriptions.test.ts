// `<t>Changed` subscriptions through the service, on SQLite, PostgreSQL and MariaDB: a subscriber
// of tenant A never sees tenant B's rows, the filter narrows, `row` is read through the read path
// (relationships included), deletes are judged on the last image, and writes made by other
// programs (straight into the outbox) arrive too.
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {outboxDdl} from '../../../source/gql/events/outbox-contract.js';
import {openGqlService} from '../../../source/gql/service.js';
import type {GqlExecuteResult, GqlService, UserContext} from '../../../source/gql/types.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';

const databases = await gqlDatabases();
const as = (tenant: string): UserContext => ({claims: {sub: `user-${tenant}`, tenant_id: tenant}, roles: [], auditKey: `user-${tenant}`, anonymous: false});

function schemaOf(fixture: GqlFixture): string {
  if (fixture.provider === 'sqlite') return 'main';
  if (fixture.provider === 'postgres') return 'public';
  return fixture.database;
}

/** Collects a subscription's results until `count` arrived (or the bound passes: then the test fails on what it has). */
async function collect(stream: AsyncIterableIterator<GqlExecuteResult>, count: number, boundMs = 20_000): Promise<GqlExecuteResult[]> {
  const results: GqlExecuteResult[] = [];
  const deadline = Date.now() + boundMs;
  while (results.length < count && Date.now() < deadline) {
    const next = await Promise.race([stream.next(), new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), Math.max(1, deadline - Date.now())))]);
    if (next === 'late' || next.done) break;
    results.push(next.value);
  }
  return results;
}

describe.each(databases)('subscriptions in $kind', (database) => {
  const maybe = database.unavailable ? it.skip : it;
  let fixture: GqlFixture | undefined;
  let db: Knex;
  let service: GqlService;
  let schema: string;

  beforeAll(async () => {
    if (database.unavailable) {
      console.warn(`skipping the subscription tests on ${database.kind}: ${database.unavailable}`);
      return;
    }
    fixture = await database.createEmpty();
    db = knex(fixture.knexConfig);
    schema = schemaOf(fixture);
    await db.schema.createTable('customers', (t) => {
      t.increments('id').primary();
      t.string('tenant_id', 20).notNullable();
      t.string('name', 100);
    });
    await db.schema.createTable('orders', (t) => {
      t.increments('id').primary();
      t.string('tenant_id', 20).notNullable();
      t.integer('customer_id').unsigned().references('id').inTable('customers');
      t.string('status', 20).notNullable();
      t.integer('amount');
      t.string('secret', 50);
    });
    for (const statement of outboxDdl(fixture.provider, schema, 'wb_outbox')) await db.raw(statement);
    service = await openGqlService(
      settingsFor(fixture, [
        `:root { outbox-table: ${schema}.wb_outbox; }`,
        `${schema}.orders { emit-events: insert, update, delete; tenant-filter: tenant_id; }`,
        `${schema}.orders.secret { visibility: hidden; }`,
        `${schema}.customers { tenant-filter: tenant_id; }`,
      ]),
      {poolMax: 3},
    );
  });
  afterAll(async () => {
    await service?.close();
    await db?.destroy();
    await fixture?.drop();
  });

  maybe('tenant A sees its own changes only, with the row read as A may read it, while tenant B writes', async () => {
    const ann = await service.execute({query: `mutation { customers(insert: {name: "Ann"}) }`, user: as('a')});
    const annId = ann.data?.customers as number;
    const stream = await service.subscribe!({
      query: `subscription { ordersChanged(filter: {amount: {_gte: 10}}) { op eventId key changed row { id status amount customers { name } } } }`,
      user: as('a'),
    });
    expect(Symbol.asyncIterator in stream).toBe(true);
    const iterator = stream as AsyncIterableIterator<GqlExecuteResult>;
    const write = (tenant: string, query: string) => service.execute({query, user: as(tenant)});
    expect((await write('b', `mutation { orders(insert: {status: "b-new", amount: 50}) }`)).errors).toBeUndefined();
    const first = (await write('a', `mutation { orders(insert: {status: "a-new", amount: 20, customer_id: ${annId}}) }`)).data?.orders as number;
    await write('a', `mutation { orders(insert: {status: "a-small", amount: 1}) }`);
    await write('b', `mutation { orders_batch(actions: [{insert: {status: "b-2", amount: 99}}, {insert: {status: "b-3", amount: 98}}]) }`);
    // The insert read back before the row changes again: its read runs beside the writes (a pooled
    // connection, SQLite's reader process), so a delete sent at once could come first.
    const inserted = await collect(iterator, 1);
    await write('a', `mutation { orders(update: {id: ${first}, status: "a-paid"}) }`);
    // Another program writes tenant B's row straight into the table and the outbox: still never A's to see.
    await write('a', `mutation { orders(delete: {id: ${first}}) }`);

    const results = [...inserted, ...(await collect(iterator, 2))];
    await iterator.return?.();
    expect(results.every((result) => result.errors === undefined)).toBe(true);
    const changes = results.map((result) => result.data?.ordersChanged as Record<string, unknown>);
    expect(changes.map((change) => change.op)).toEqual(['insert', 'update', 'delete']);
    expect(changes[0]).toMatchObject({key: {id: first}, row: {id: first, status: 'a-new', amount: 20, customers: {name: 'Ann'}}});
    // The update may be read after the delete already removed the row: then it comes judged on its image, with no row.
    expect(changes[1]).toMatchObject({changed: ['status']});
    expect([null, 'a-paid']).toContain((changes[1]?.row as {status?: string} | null)?.status ?? null);
    expect(changes[2]).toMatchObject({key: {id: first}, row: null});
    // Hidden columns are nowhere, not even in `changed`.
    expect(JSON.stringify(changes)).not.toContain('secret');
  });

  maybe('a subscriber with no tenant claim is refused; a query over HTTP cannot subscribe', async () => {
    const refused = await service.subscribe!({query: `subscription { ordersChanged { op } }`, user: {claims: {}, roles: [], anonymous: true}});
    expect('errors' in refused && refused.errors?.[0]?.message).toMatch(/isolated by tenant/);
    const viaExecute = await service.execute({query: `subscription { ordersChanged { op } }`, user: as('a')});
    expect(viaExecute.errors?.[0]?.message).toMatch(/over WebSocket \(graphql-ws\)/);
    const unknown = await service.subscribe!({query: `subscription { customersChanged { op } }`, user: as('a')});
    expect('errors' in unknown && unknown.errors?.[0]?.message).toMatch(/Cannot query field "customersChanged"/);
  });

  maybe('changes written by another program straight into the outbox arrive too', async () => {
    const stream = (await service.subscribe!({query: `subscription { ordersChanged { op key row { status } } }`, user: as('a')})) as AsyncIterableIterator<GqlExecuteResult>;
    const [row] = await db('orders').insert({tenant_id: 'a', status: 'outside', amount: 5}).returning('id');
    const id = typeof row === 'object' ? Number((row as {id: number}).id) : Number(row);
    await db('wb_outbox').insert({
      aggregate: `${schema}.orders`,
      aggregate_id: JSON.stringify({id}),
      op: 'insert',
      payload: JSON.stringify({table: `${schema}.orders`, op: 'insert', key: {id}}),
      tenant: 'a',
      created_at: fixture!.provider === 'sqlite' ? new Date().toISOString() : new Date(),
    });
    const [result] = await collect(stream, 1);
    await stream.return?.();
    expect(result?.data?.ordersChanged).toEqual({op: 'insert', key: {id}, row: {status: 'outside'}});
  });
});
