// Change-event triggers on every database: `install-triggers` logic on a table of its own, then
// writes made directly in SQL (as another program would) checked row by row in the outbox for
// each payload mode, a rolled-back write leaving nothing; then the service over the same tables
// writes exactly one event per change whether the triggers are installed (they write it) or not
// (the service does), and the two agree on the payload.
import knex, {type Knex} from 'knex';
import {afterAll, describe, expect, it} from 'vitest';
import {outboxDdl} from '../../../source/gql/events/outbox-contract.js';
import {installTriggers} from '../../../source/gql/events/triggers/install.js';
import {openGqlService} from '../../../source/gql/service.js';
import type {EventPayloadMode, GqlService, UserContext} from '../../../source/gql/types.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';

const databases = await gqlDatabases();
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

const alice: UserContext = {claims: {tenant_id: 'a'}, roles: [], anonymous: false};

interface OutboxRow {
  id: number;
  aggregate: string;
  aggregate_id: string;
  op: string;
  payload: Record<string, unknown>;
  tenant: string | null;
}

function ordersDdl(kind: GqlFixture['provider']): string {
  switch (kind) {
    case 'postgres':
      return `create table orders (id integer generated always as identity primary key, tenant_id varchar(20) not null, status varchar(20) not null,
        amount integer not null, price numeric(10,2), details jsonb, deleted_at timestamptz)`;
    case 'mysql':
      return `create table orders (id int not null auto_increment primary key, tenant_id varchar(20) not null, status varchar(20) not null,
        amount int not null, price decimal(10,2) null, details json null, deleted_at datetime(6) null)`;
    case 'sqlite':
      return `create table orders (id integer primary key autoincrement, tenant_id text not null, status text not null,
        amount integer not null, price numeric, details text, deleted_at text)`;
  }
}

const nowSql = (kind: GqlFixture['provider']) => (kind === 'postgres' ? 'now()' : kind === 'mysql' ? 'now(6)' : `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`);

describe.each(databases.map((database) => [database.kind, database] as const))('change-event triggers on %s', (kind, database) => {
  if (database.unavailable) console.warn(`change-event triggers on ${kind}: SKIPPED, ${database.unavailable}`);
  const skip = database.unavailable !== null;
  let fixture: GqlFixture;
  let db: Knex;
  let schema: string;
  const services: GqlService[] = [];
  afterAll(async () => {
    for (const service of services) await service.close();
    await db?.destroy();
  });

  const metadata = (mode: EventPayloadMode) => [
    `:root { outbox-table: ${schema}.wb_outbox; }`,
    `${schema}.orders { emit-events: insert, update, delete; event-payload: ${mode}; tenant-filter: tenant_id; soft-delete: deleted_at; }`,
  ];
  const outboxRef = () => (kind === 'sqlite' ? 'wb_outbox' : `${schema}.wb_outbox`);
  /** The outbox rows after `id`, payload parsed (PostgreSQL's jsonb comes parsed already). */
  const outboxAfter = async (id = 0): Promise<OutboxRow[]> => {
    const rows = (await db(outboxRef()).where('id', '>', id).orderBy('id')) as Array<OutboxRow & {payload: unknown}>;
    return rows.map((row) => ({...row, id: Number(row.id), payload: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Record<string, unknown>}));
  };
  const lastId = async () => (await outboxAfter()).at(-1)?.id ?? 0;
  const install = (mode: EventPayloadMode, extra: {print?: boolean; uninstall?: boolean} = {}) => installTriggers({settings: settingsFor(fixture, metadata(mode)), ...extra});
  const open = async (mode: EventPayloadMode) => {
    const service = await openGqlService(settingsFor(fixture, metadata(mode)), {poolMax: 2});
    services.push(service);
    return service;
  };
  const mutate = async (service: GqlService, query: string) => {
    const result = await service.execute({query, user: alice});
    expect(result.errors).toBeUndefined();
    return result.data;
  };

  it.skipIf(skip)('installs, and a direct insert, update, soft delete and delete each write one outbox row in the full shape; a rollback writes none', async () => {
    fixture = await database.createEmpty();
    drops.push(() => fixture.drop());
    db = knex(fixture.knexConfig);
    schema = kind === 'sqlite' ? 'main' : kind === 'postgres' ? 'public' : fixture.database;
    await db.raw(ordersDdl(kind));
    for (const statement of outboxDdl(kind, schema, 'wb_outbox')) await db.raw(statement);

    const printed = await install('full', {print: true});
    expect(printed).toMatchObject({tables: [`${schema}.orders`], applied: false});
    expect(printed.statements.join('\n')).toMatch(/create (or replace )?trigger \S*wb_cdc_orders_insert/);
    expect(await outboxAfter()).toEqual([]);
    const installed = await install('full');
    expect(installed.applied).toBe(true);
    // Idempotent: installing again replaces.
    await install('full');

    await db.raw(`insert into orders (tenant_id, status, amount, price, details) values ('a', 'new', 3, 2.5, '{"a":1}')`);
    await db.raw(`update orders set status = 'paid' where id = 1`);
    await db
      .transaction(async (trx) => {
        await trx.raw(`insert into orders (tenant_id, status, amount) values ('b', 'lost', 1)`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await db.raw(`update orders set deleted_at = ${nowSql(kind)} where id = 1`);
    await db.raw(`delete from orders where id = 1`);

    const rows = await outboxAfter();
    expect(rows.map((row) => [row.aggregate, row.aggregate_id, row.op, row.tenant])).toEqual([
      [`${schema}.orders`, '{"id":1}', 'insert', 'a'],
      [`${schema}.orders`, '{"id":1}', 'update', 'a'],
      [`${schema}.orders`, '{"id":1}', 'delete', 'a'],
      [`${schema}.orders`, '{"id":1}', 'delete', 'a'],
    ]);
    const [inserted, updated, softDeleted, deleted] = rows.map((row) => row.payload) as Array<Record<string, Record<string, unknown>>>;
    // Exact numbers as the service's drivers hand them: text on PostgreSQL and MariaDB, a number on SQLite.
    const price = kind === 'sqlite' ? 2.5 : '2.50';
    // JSON as the drivers hand it too: parsed from PostgreSQL's jsonb, text from MariaDB's JSON (a LONGTEXT).
    const details = kind === 'postgres' ? {a: 1} : '{"a":1}';
    const row = {id: 1, tenant_id: 'a', status: 'new', amount: 3, price, details, deleted_at: null};
    expect(inserted).toEqual({table: `${schema}.orders`, op: 'insert', key: {id: 1}, after: row});
    expect(updated).toEqual({table: `${schema}.orders`, op: 'update', key: {id: 1}, before: row, after: {...row, status: 'paid'}});
    const {deleted_at: _stamp, ...rest} = row;
    expect(softDeleted).toMatchObject({op: 'delete', key: {id: 1}, before: {...row, status: 'paid'}, after: {...rest, status: 'paid'}});
    expect(softDeleted!.before!.deleted_at).toBeNull();
    expect(typeof softDeleted!.after!.deleted_at).toBe('string');
    expect(Object.keys(deleted!).sort()).toEqual(['before', 'key', 'op', 'table']);
    expect(deleted!.before).toMatchObject({id: 1, status: 'paid'});
    expect(await db('orders')).toEqual([]);
  });

  it.skipIf(skip)('writes event-payload: changed (an update: the changed columns only) and keys', async () => {
    await install('changed');
    let from = await lastId();
    await db.raw(`insert into orders (tenant_id, status, amount) values ('a', 'new', 4)`);
    const [id] = ((await db('orders').max('id as id')) as Array<{id: number}>).map((row) => Number(row.id));
    await db.raw(`update orders set status = 'paid', amount = 4 where id = ${id}`);
    await db.raw(`update orders set deleted_at = ${nowSql(kind)} where id = ${id}`);
    await db.raw(`delete from orders where id = ${id}`);
    const changed = (await outboxAfter(from)).map((row) => row.payload as {op: string; changes: Record<string, {old: unknown; new: unknown}>});
    expect(changed.map((payload) => payload.op)).toEqual(['insert', 'update', 'delete', 'delete']);
    expect(changed[0]!.changes).toEqual({
      id: {old: null, new: id},
      tenant_id: {old: null, new: 'a'},
      status: {old: null, new: 'new'},
      amount: {old: null, new: 4},
      price: {old: null, new: null},
      details: {old: null, new: null},
      deleted_at: {old: null, new: null},
    });
    expect(changed[1]).toEqual({table: `${schema}.orders`, op: 'update', key: {id}, changes: {status: {old: 'new', new: 'paid'}}});
    // The soft delete, as the service writes it: every column, old and new.
    expect(changed[2]!.changes.status).toEqual({old: 'paid', new: 'paid'});
    expect(changed[2]!.changes.deleted_at!.old).toBeNull();
    expect(typeof changed[2]!.changes.deleted_at!.new).toBe('string');
    expect(changed[3]!.changes.status).toEqual({old: 'paid', new: null});
    expect(Object.keys(changed[3]!.changes)).toHaveLength(7);

    await install('keys');
    from = await lastId();
    await db.raw(`insert into orders (tenant_id, status, amount) values ('b', 'new', 5)`);
    await db.raw(`delete from orders where tenant_id = 'b'`);
    const keys = await outboxAfter(from);
    expect(keys.map((row) => [row.op, row.tenant, row.payload])).toEqual([
      ['insert', 'b', {table: `${schema}.orders`, op: 'insert', key: {id: id + 1}}],
      ['delete', 'b', {table: `${schema}.orders`, op: 'delete', key: {id: id + 1}}],
    ]);
  });

  it.skipIf(skip)('writes through the service: one event per change with the triggers (theirs) and without them (its own), the same payload in every mode', async () => {
    /** Insert, update, soft delete and a batch of two inserts through GraphQL: the outbox rows they added. */
    const writeThrough = async (service: GqlService) => {
      const from = await lastId();
      const id = (await mutate(service, 'mutation { orders(insert: {tenant_id: "a", status: "new", amount: 3}) }'))!.orders as number;
      await mutate(service, `mutation { orders(update: {id: ${id}, status: "paid"}) }`);
      await mutate(service, `mutation { orders(delete: {id: ${id}}) }`);
      await mutate(service, 'mutation { orders_batch(actions: [{insert: {status: "b1", amount: 1}}, {insert: {status: "b2", amount: 2}}]) }');
      const rows = await outboxAfter(from);
      expect(rows.map((row) => [row.aggregate_id, row.op, row.tenant])).toEqual([
        [`{"id":${id}}`, 'insert', 'a'],
        [`{"id":${id}}`, 'update', 'a'],
        [`{"id":${id}}`, 'delete', 'a'],
        [`{"id":${id + 1}}`, 'insert', 'a'],
        [`{"id":${id + 2}}`, 'insert', 'a'],
      ]);
      return rows;
    };
    // The same shape and values, the keys and the soft-delete stamp (formatted by each side) aside.
    const comparable = (payload: Record<string, unknown>) =>
      JSON.parse(JSON.stringify(payload, (name, value: unknown) => (name === 'id' ? '<id>' : name === 'deleted_at' && value !== null ? '<stamp>' : value))) as unknown;

    for (const mode of ['full', 'changed', 'keys'] as const) {
      await install(mode);
      const withTriggers = await open(mode);
      expect(withTriggers.model.byKey.get(`${schema}.orders`)!.events).toMatchObject({capture: 'trigger', payload: mode});
      const byTrigger = await writeThrough(withTriggers);

      const uninstalled = await install(mode, {uninstall: true});
      expect(uninstalled).toMatchObject({tables: [`${schema}.orders`], applied: true});
      const withoutTriggers = await open(mode);
      expect(withoutTriggers.model.byKey.get(`${schema}.orders`)!.events).toMatchObject({capture: 'service'});
      const byService = await writeThrough(withoutTriggers);
      expect(byTrigger.map((row) => comparable(row.payload))).toEqual(byService.map((row) => comparable(row.payload)));
    }
    // With the triggers gone a direct write is no longer captured: the service's capture is its own writes only.
    const from = await lastId();
    await db.raw(`insert into orders (tenant_id, status, amount) values ('a', 'direct', 1)`);
    expect(await outboxAfter(from)).toEqual([]);
  });

  it.skipIf(skip)('flags triggers that no longer match the rules, and refuses a model with no emitting table', async () => {
    await install('full');
    const onlyInserts = [`:root { outbox-table: ${schema}.wb_outbox; }`, `${schema}.orders { emit-events: insert; tenant-filter: tenant_id; soft-delete: deleted_at; }`];
    await expect(openGqlService(settingsFor(fixture, onlyInserts), {poolMax: 1})).rejects.toThrow(/do not match its emit-events .*install-triggers/);
    // The install repairs it (it reads the model without the check): the service of those rules opens, the old rules' no longer.
    await installTriggers({settings: settingsFor(fixture, onlyInserts)});
    services.push(await openGqlService(settingsFor(fixture, onlyInserts), {poolMax: 1}));
    await expect(open('full')).rejects.toThrow(/installed: wb_cdc_orders_insert; needed: wb_cdc_orders_insert, wb_cdc_orders_update, wb_cdc_orders_delete/);
    await expect(installTriggers({settings: settingsFor(fixture, [`:root { outbox-table: ${schema}.wb_outbox; }`])})).rejects.toThrow(/no table emits events/);
    await installTriggers({settings: settingsFor(fixture, onlyInserts), uninstall: true});
  });
});
