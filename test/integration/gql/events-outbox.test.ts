// Change events written to the outbox in the change's own transaction, on SQLite, PostgreSQL and
// MariaDB: every mutation path (single, per-row batch, set-based batch, updateWhere, soft delete,
// upsert), the three payload modes, and a rolled-back change that leaves no event.
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {outboxDdl} from '../../../source/gql/events/outbox-contract.js';
import {OutboxStore, type OutboxEvent} from '../../../source/gql/events/outbox-store.js';
import {openGqlService} from '../../../source/gql/service.js';
import type {GqlService, UserContext} from '../../../source/gql/types.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';

const databases = await gqlDatabases();
const tenantA: UserContext = {claims: {sub: 'ann', tenant_id: 'a'}, roles: [], auditKey: 'ann', anonymous: false};

function schemaOf(fixture: GqlFixture): string {
  if (fixture.provider === 'sqlite') return 'main';
  if (fixture.provider === 'postgres') return 'public';
  return fixture.database;
}

describe.each(databases)('the outbox in $kind', (database) => {
  const maybe = database.unavailable ? it.skip : it;
  let fixture: GqlFixture | undefined;
  let db: Knex;
  let schema: string;
  const services: GqlService[] = [];

  async function open(payload: 'full' | 'changed' | 'keys', extra: string[] = []): Promise<{service: GqlService; store: OutboxStore}> {
    const service = await openGqlService(
      settingsFor(fixture!, [
        `:root { outbox-table: ${schema}.wb_outbox; }`,
        `${schema}.orders { emit-events: insert, update, delete; event-payload: ${payload}; tenant-filter: tenant_id; soft-delete: deleted_at; filtered-update: enabled; bulk-batch-threshold: 5; }`,
        `${schema}.notes { emit-events: insert; }`,
        ...extra,
      ]),
      {poolMax: 2},
    );
    services.push(service);
    return {service, store: new OutboxStore(service.db, service.settings.provider, service.model.events!.outbox)};
  }

  async function run(service: GqlService, query: string, user: UserContext = tenantA) {
    const result = await service.execute({query, user});
    return result;
  }

  const fresh = async () => {
    await db('wb_outbox').del();
    await db('orders').del();
    await db('notes').del();
  };

  beforeAll(async () => {
    if (database.unavailable) {
      console.warn(`skipping the outbox tests on ${database.kind}: ${database.unavailable}`);
      return;
    }
    fixture = await database.createEmpty();
    db = knex(fixture.knexConfig);
    schema = schemaOf(fixture);
    await db.schema.createTable('orders', (t) => {
      t.increments('id').primary();
      t.string('tenant_id', 20).notNullable();
      t.string('status', 20).notNullable().defaultTo('new');
      t.integer('amount');
      t.string('deleted_at', 40).nullable();
    });
    await db.schema.createTable('notes', (t) => {
      t.string('code', 20).primary();
      t.string('body', 200);
    });
    for (const statement of outboxDdl(fixture.provider, schema, 'wb_outbox')) await db.raw(statement);
  });
  afterAll(async () => {
    for (const service of services) await service.close();
    await db?.destroy();
    await fixture?.drop();
  });

  maybe('single writes: insert, update, soft delete, upsert, each with its event and images (full)', async () => {
    await fresh();
    const {service, store} = await open('full');
    const inserted = await run(service, `mutation { orders(insert: {status: "new", amount: 3}) }`);
    expect(inserted.errors).toBeUndefined();
    const id = inserted.data?.orders as number;
    expect((await run(service, `mutation { orders(update: {id: ${id}, status: "paid"}) }`)).errors).toBeUndefined();
    expect((await run(service, `mutation { orders(upsert: {id: ${id}, status: "sent", amount: 4}) }`)).errors).toBeUndefined();
    expect((await run(service, `mutation { orders(delete: {id: ${id}}) }`)).errors).toBeUndefined();
    expect((await run(service, `mutation { notes(insert: {code: "n1", body: "hello"}) }`)).errors).toBeUndefined();

    const events = await store.list({state: 'all', limit: 100});
    expect(events.map((event) => [event.aggregate, event.op])).toEqual([
      [`${schema}.orders`, 'insert'],
      [`${schema}.orders`, 'update'],
      [`${schema}.orders`, 'update'],
      [`${schema}.orders`, 'delete'],
      [`${schema}.notes`, 'insert'],
    ]);
    const [insert, update, upsert, remove, note] = events as [OutboxEvent, OutboxEvent, OutboxEvent, OutboxEvent, OutboxEvent];
    expect(JSON.parse(insert.aggregateId)).toEqual({id});
    expect(insert.tenant).toBe('a');
    expect(insert.payload).toMatchObject({table: `${schema}.orders`, op: 'insert', key: {id}, after: {id, tenant_id: 'a', status: 'new', amount: 3}});
    expect(insert.payload.before).toBeUndefined();
    expect(update.payload).toMatchObject({before: {status: 'new'}, after: {status: 'paid'}});
    expect(upsert.payload).toMatchObject({before: {status: 'paid', amount: 3}, after: {status: 'sent', amount: 4}});
    // A soft delete is a delete whose row stays: the before image, and the stamped row after.
    expect(remove.payload.before).toMatchObject({status: 'sent', deleted_at: null});
    expect(remove.payload.after?.deleted_at).not.toBeNull();
    expect(remove.tenant).toBe('a');
    expect(note.payload).toMatchObject({key: {code: 'n1'}, after: {body: 'hello'}});
    expect(note.tenant).toBeNull();
    expect(events.every((event) => event.dispatchedAt === null && event.attempts === 0 && !event.dead)).toBe(true);
  });

  maybe('changed and keys payloads', async () => {
    await fresh();
    const changed = await open('changed');
    const id = (await run(changed.service, `mutation { orders(insert: {status: "new", amount: 3}) }`)).data?.orders as number;
    await run(changed.service, `mutation { orders(update: {id: ${id}, status: "paid", amount: 3}) }`);
    const [insert, update] = await changed.store.list({state: 'all', limit: 10});
    expect(insert?.payload.changes).toMatchObject({status: {old: null, new: 'new'}, amount: {old: null, new: 3}});
    expect(update?.payload.changes).toEqual({status: {old: 'new', new: 'paid'}});
    expect(update?.payload.before).toBeUndefined();

    await fresh();
    const keys = await open('keys');
    const second = (await run(keys.service, `mutation { orders(insert: {status: "new"}) }`)).data?.orders as number;
    await run(keys.service, `mutation { orders(delete: {id: ${second}}) }`);
    const rows = await keys.store.list({state: 'all', limit: 10});
    expect(rows.map((row) => row.payload)).toEqual([
      {table: `${schema}.orders`, op: 'insert', key: {id: second}},
      {table: `${schema}.orders`, op: 'delete', key: {id: second}},
    ]);
    expect(rows.map((row) => row.tenant)).toEqual(['a', 'a']);
  });

  maybe('batches (per row and set-based) and updateWhere write one event per changed row; another tenant is not touched', async () => {
    await fresh();
    const {service, store} = await open('full');
    const small = await run(service, `mutation { orders_batch(actions: [{insert: {status: "a"}}, {insert: {status: "b"}}]) }`);
    expect(small.errors).toBeUndefined();
    const big = await run(service, `mutation { orders_batch(actions: [${Array.from({length: 6}, (_, i) => `{insert: {status: "bulk", amount: ${i}}}`).join(', ')}]) }`);
    expect(big.errors).toBeUndefined();
    await db('orders').insert({tenant_id: 'b', status: 'bulk', amount: 99});
    const ids = (await db('orders').where({tenant_id: 'a', status: 'bulk'}).orderBy('id').select('id')).map((row: {id: number}) => Number(row.id));
    const updates = ids.map((id) => `{update: {id: ${id}, status: "done"}}`).join(', ');
    expect((await run(service, `mutation { orders_batch(actions: [${updates}]) }`)).errors).toBeUndefined();
    const where = await run(service, `mutation { orders(updateWhere: {set: {status: "closed"}, where: {status: {_eq: "done"}}}) }`);
    expect(where.errors).toBeUndefined();
    const deletes = ids.map((id) => `{delete: {id: ${id}}}`).join(', ');
    expect((await run(service, `mutation { orders_batch(actions: [${deletes}]) }`)).errors).toBeUndefined();

    const events = await store.list({state: 'all', limit: 100});
    const count = (op: string) => events.filter((event) => event.op === op).length;
    expect(count('insert')).toBe(8);
    expect(count('update')).toBe(12);
    expect(count('delete')).toBe(6);
    expect(events.every((event) => event.tenant === 'a')).toBe(true);
    const closing = events.filter((event) => event.op === 'update' && event.payload.after?.status === 'closed');
    expect(closing).toHaveLength(6);
    expect(closing.every((event) => event.payload.before?.status === 'done')).toBe(true);
    // Ids grow with the order the changes were made.
    expect(events.map((event) => event.id)).toEqual([...events.map((event) => event.id)].sort((x, y) => x - y));
  });

  maybe('a change that rolls back leaves no event', async () => {
    await fresh();
    const {service, store} = await open('full');
    await db('orders').insert({id: 500, tenant_id: 'a', status: 'x'});
    // The second insert collides with row 500: the whole batch (and its first event) rolls back.
    const failed = await run(
      service,
      `mutation { orders_batch(actions: [{update: {id: 500, status: "y"}}, {upsert: {id: 500, status: "z"}}, {insert: {status: "q", amount: "oops"}}]) }`,
    );
    expect(failed.errors?.length).toBeGreaterThan(0);
    expect(await store.list({state: 'all', limit: 10})).toEqual([]);
    expect((await db('orders').where({id: 500}).first())?.status).toBe('x');
  });
});
