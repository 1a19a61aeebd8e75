// Mutations on every database: insert/update/upsert/delete with populate, soft delete, read-only
// columns and the tenant policy on every write path; batches (duplicate policies, the set-based
// path at the threshold, all or nothing). The mutate functions are called directly on a
// hand-built model.
import {afterAll, describe, expect, it} from 'vitest';
import {runBatch} from '../../../source/gql/mutate/batch.js';
import {mutateRow} from '../../../source/gql/mutate/mutate-row.js';
import {resultValue} from '../../../source/gql/mutate/result-value.js';
import type {GqlRequestContext, SentStatement, UserContext} from '../../../source/gql/types.js';
import {testDatabases} from '../../helpers/test-databases.js';
import {openMutationFixture, user, type MutationFixture} from './mutate-fixture.js';

const databases = await testDatabases();
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

const alice = user('t1', 'alice');
const bob = user('t2', 'bob');

function context(fixture: MutationFixture, who: UserContext, statements?: SentStatement[]): GqlRequestContext {
  return statements ? {model: fixture.model, db: fixture.db, user: who, statements} : {model: fixture.model, db: fixture.db, user: who};
}

const rowsOf = (fixture: MutationFixture, name: string) =>
  fixture
    .db(`${fixture.table(name).schema}.${name}`)
    .select()
    .orderBy(fixture.table(name).primaryKey);

describe.each(databases.map((database) => [database.kind, database] as const))('mutations on %s', (_kind, database) => {
  const skip = database.unavailable !== null;
  let fixture: MutationFixture;
  const open = async () => (fixture = await openMutationFixture(database, drops));
  afterAll(async () => fixture?.close());

  it.skipIf(skip)('inserts with the identity returned, audit columns filled, the tenant forced and injection strings stored verbatim', async () => {
    await open();
    const orders = fixture.table('orders');
    const hostile = `x'); drop table orders; -- "\\ ; ${'`'}`;
    const first = await mutateRow(context(fixture, alice), orders, {op: 'insert', values: {customer: hostile, amount: 5, origin: 'web'}});
    expect(resultValue(orders, 'insert', first)).toBe(1);
    const second = await mutateRow(context(fixture, bob), orders, {op: 'insert', values: {customer: 'Bob Co', tenant_id: 't2'}});
    expect(resultValue(orders, 'insert', second)).toBe(2);
    const [row] = await rowsOf(fixture, 'orders');
    expect(row).toMatchObject({id: 1, tenant_id: 't1', customer: hostile, status: 'new', amount: 5, origin: 'web', created_by: 'alice', updated_by: 'alice', deleted_at: null});
    expect(row.created_on).not.toBeNull();
    expect(row.updated_on).not.toBeNull();
    // Another tenant, an identity, a populate column, an unknown one: refused, nothing written.
    await expect(mutateRow(context(fixture, alice), orders, {op: 'insert', values: {customer: 'c', tenant_id: 't2'}})).rejects.toThrow(/tenant_id is pinned/);
    await expect(mutateRow(context(fixture, alice), orders, {op: 'insert', values: {customer: 'c', id: 99}})).rejects.toThrow(/identity/);
    await expect(mutateRow(context(fixture, alice), orders, {op: 'insert', values: {customer: 'c', created_by: 'mallory'}})).rejects.toThrow(/populate/);
    await expect(mutateRow(context(fixture, alice), orders, {op: 'insert', values: {customer: 'c', 'id; drop': 1}})).rejects.toThrow(/has no column/);
    await expect(mutateRow(context(fixture, user(undefined)), orders, {op: 'insert', values: {customer: 'c'}})).rejects.toThrow(/no single "tenant_id" claim/);
    expect(await rowsOf(fixture, 'orders')).toHaveLength(2);
    // A database refusal is a clean error without the SQL.
    const duplicate = mutateRow(context(fixture, alice), fixture.table('tags'), {op: 'insert', values: {code: 'a', label: 'A'}}).then(() =>
      mutateRow(context(fixture, alice), fixture.table('tags'), {op: 'insert', values: {code: 'a', label: 'again'}}),
    );
    await expect(duplicate).rejects.toMatchObject({name: 'WorkbenchError', code: 'conflict'});
    await expect(duplicate).rejects.not.toThrow(/insert into/);
  });

  it.skipIf(skip)('updates by key inside the tenant, stamps updated-*, refuses read-only and tenant changes', async () => {
    const orders = fixture.table('orders');
    const statements: SentStatement[] = [];
    const updated = await mutateRow(context(fixture, alice, statements), orders, {op: 'update', values: {id: 1, status: 'paid', amount: 7}});
    expect(resultValue(orders, 'update', updated)).toBe(1);
    expect(statements.map((s) => s.sql).join('\n')).toMatch(/update/i);
    const [row] = await rowsOf(fixture, 'orders');
    expect(row).toMatchObject({status: 'paid', amount: 7, created_by: 'alice', updated_by: 'alice'});
    // Bob cannot reach Alice's row: nothing updated, the answer is null.
    expect(resultValue(orders, 'update', await mutateRow(context(fixture, bob), orders, {op: 'update', values: {id: 1, status: 'stolen'}}))).toBeNull();
    await expect(mutateRow(context(fixture, alice), orders, {op: 'update', values: {id: 1, origin: 'changed'}})).rejects.toThrow(/read-only/);
    await expect(mutateRow(context(fixture, alice), orders, {op: 'update', values: {id: 1, tenant_id: 't2'}})).rejects.toThrow(/pinned/);
    await expect(mutateRow(context(fixture, alice), orders, {op: 'update', values: {status: 'x'}})).rejects.toThrow(/needs its key/);
    await expect(mutateRow(context(fixture, alice), orders, {op: 'update', values: {id: 1, updated_by: 'mallory'}})).rejects.toThrow(/populate/);
    // Its own tenant is no change, and allowed.
    expect(resultValue(orders, 'update', await mutateRow(context(fixture, alice), orders, {op: 'update', values: {id: 1, tenant_id: 't1', amount: 8}}))).toBe(1);
    expect((await rowsOf(fixture, 'orders'))[0]).toMatchObject({status: 'paid', amount: 8, origin: 'web', tenant_id: 't1'});
  });

  it.skipIf(skip)('upserts insert new keys and update own rows, never another tenant’s', async () => {
    const tags = fixture.table('tags');
    expect(resultValue(tags, 'upsert', await mutateRow(context(fixture, alice), tags, {op: 'upsert', values: {code: 'b', label: 'B'}}))).toBe('b');
    expect(resultValue(tags, 'upsert', await mutateRow(context(fixture, alice), tags, {op: 'upsert', values: {code: 'b', label: 'B2'}}))).toBe('b');
    // Bob upserting Alice's key: her row stays, the answer is null.
    expect(resultValue(tags, 'upsert', await mutateRow(context(fixture, bob), tags, {op: 'upsert', values: {code: 'b', label: 'mine now'}}))).toBeNull();
    expect(await rowsOf(fixture, 'tags')).toEqual([
      {code: 'a', tenant_id: 't1', label: 'A'},
      {code: 'b', tenant_id: 't1', label: 'B2'},
    ]);
    // An identity-keyed upsert without the key is an insert.
    const orders = fixture.table('orders');
    expect(resultValue(orders, 'upsert', await mutateRow(context(fixture, alice), orders, {op: 'upsert', values: {customer: 'Up'}}))).toBe(3);
    expect(resultValue(orders, 'upsert', await mutateRow(context(fixture, alice), orders, {op: 'upsert', values: {id: 3, customer: 'Up2', origin: 'ignored on update'}}))).toBe(3);
    const row = (await rowsOf(fixture, 'orders')).find((r) => r.id === 3);
    expect(row).toMatchObject({customer: 'Up2', origin: null, created_by: 'alice'});
  });

  it.skipIf(skip)('soft deletes stamp who and when, and deleted rows are gone for update, upsert and delete', async () => {
    const orders = fixture.table('orders');
    expect(resultValue(orders, 'delete', await mutateRow(context(fixture, bob), orders, {op: 'delete', values: {id: 1}}))).toBe(0);
    expect(resultValue(orders, 'delete', await mutateRow(context(fixture, alice), orders, {op: 'delete', values: {id: 1}}))).toBe(1);
    const row = (await rowsOf(fixture, 'orders')).find((r) => r.id === 1);
    expect(row.deleted_at).not.toBeNull();
    expect(row.deleted_by).toBe('alice');
    expect(resultValue(orders, 'delete', await mutateRow(context(fixture, alice), orders, {op: 'delete', values: {id: 1}}))).toBe(0);
    expect(resultValue(orders, 'update', await mutateRow(context(fixture, alice), orders, {op: 'update', values: {id: 1, status: 'back'}}))).toBeNull();
    expect(resultValue(orders, 'upsert', await mutateRow(context(fixture, alice), orders, {op: 'upsert', values: {id: 1, customer: 'back'}}))).toBeNull();
    expect((await rowsOf(fixture, 'orders')).find((r) => r.id === 1)).toMatchObject({status: 'paid', deleted_by: 'alice'});
    await expect(mutateRow(context(fixture, alice), orders, {op: 'update', values: {id: 2, deleted_at: null}})).rejects.toThrow(/soft delete only/);
    await expect(mutateRow(context(fixture, alice), orders, {op: 'delete', values: {id: 2, status: 'x'}})).rejects.toThrow(/key only/);
    // Hard delete elsewhere, with a text key, inside the tenant.
    const tags = fixture.table('tags');
    expect(resultValue(tags, 'delete', await mutateRow(context(fixture, bob), tags, {op: 'delete', values: {code: 'a'}}))).toBe('0');
    expect(resultValue(tags, 'delete', await mutateRow(context(fixture, alice), tags, {op: 'delete', values: {code: 'a'}}))).toBe('1');
  });

  it.skipIf(skip)('composite keys answer as JSON text', async () => {
    const lines = fixture.table('lines');
    const outcome = await mutateRow(context(fixture, alice), lines, {op: 'insert', values: {order_id: 3, line_no: 1, qty: 2}});
    expect(resultValue(lines, 'insert', outcome)).toBe('{"order_id":3,"line_no":1}');
    expect(resultValue(lines, 'update', await mutateRow(context(fixture, alice), lines, {op: 'update', values: {order_id: 3, line_no: 1, qty: 4}}))).toBe(
      '{"order_id":3,"line_no":1}',
    );
    expect(resultValue(lines, 'delete', await mutateRow(context(fixture, alice), lines, {op: 'delete', values: {order_id: 3, line_no: 1}}))).toBe('1');
  });

  it.skipIf(skip)('batches are all or nothing, refuse duplicates under reject and oversize batches, and collapse under last-wins', async () => {
    const tags = fixture.table('tags');
    await expect(
      runBatch(context(fixture, alice), tags, [
        {op: 'insert', values: {code: 'c1', label: 'one'}},
        {op: 'insert', values: {code: 'b', label: 'exists already'}},
      ]),
    ).rejects.toMatchObject({code: 'conflict'});
    expect((await rowsOf(fixture, 'tags')).map((r) => r.code)).toEqual(['b']);

    const result = await runBatch(context(fixture, alice), tags, [
      {op: 'insert', values: {code: 'n1', label: 'new'}},
      {op: 'update', values: {code: 'n1', label: 'merged'}},
      {op: 'update', values: {code: 'b', label: 'x'}},
      {op: 'delete', values: {code: 'b'}},
      {op: 'insert', values: {code: 'n2', label: 'gone'}},
      {op: 'delete', values: {code: 'n2'}},
    ]);
    expect(result).toMatchObject({affected: 2, path: 'per-row', executed: 2});
    expect(await rowsOf(fixture, 'tags')).toEqual([{code: 'n1', tenant_id: 't1', label: 'merged'}]);

    // delete then insert replaces the row.
    await runBatch(context(fixture, alice), tags, [
      {op: 'delete', values: {code: 'n1'}},
      {op: 'insert', values: {code: 'n1', label: 'replaced'}},
    ]);
    expect(await rowsOf(fixture, 'tags')).toEqual([{code: 'n1', tenant_id: 't1', label: 'replaced'}]);

    const strict = {...tags, batchDuplicatePolicy: 'reject' as const, batchMaxSize: 3};
    const statements: SentStatement[] = [];
    await expect(
      runBatch(context(fixture, alice, statements), strict, [
        {op: 'update', values: {code: 'n1', label: 'a'}},
        {op: 'update', values: {code: 'n1', label: 'b'}},
      ]),
    ).rejects.toThrow(/batch-duplicate-policy is reject; nothing was written/);
    await expect(
      runBatch(
        context(fixture, alice, statements),
        strict,
        [1, 2, 3, 4].map((n) => ({op: 'insert' as const, values: {code: `m${n}`}})),
      ),
    ).rejects.toThrow(/batch-max-size of 3/);
    expect(statements).toEqual([]);

    // Cross-tenant: Bob's batch reaches none of Alice's rows, and cannot insert into her tenant.
    expect(
      await runBatch(context(fixture, bob), tags, [
        {op: 'update', values: {code: 'n1', label: 'bob'}},
        {op: 'upsert', values: {code: 'n1', label: 'bob'}},
      ]).catch((error: Error) => error.message),
    ).toMatch(/whether the row exists/);
    expect(
      (
        await runBatch(context(fixture, bob), tags, [
          {op: 'update', values: {code: 'n1', label: 'bob'}},
          {op: 'delete', values: {code: 'zz'}},
        ])
      ).affected,
    ).toBe(0);
    expect((await runBatch(context(fixture, bob), tags, [{op: 'delete', values: {code: 'n1'}}])).affected).toBe(0);
    await expect(runBatch(context(fixture, bob), tags, [{op: 'insert', values: {code: 'q', tenant_id: 't1'}}])).rejects.toThrow(/pinned/);
    expect(await rowsOf(fixture, 'tags')).toEqual([{code: 'n1', tenant_id: 't1', label: 'replaced'}]);
  });

  it.skipIf(skip)('a batch at bulk-batch-threshold runs set-based where the database has the path, with the same result as per row', async () => {
    const seed = (n: number) => ({op: 'insert' as const, values: {id: n, name: `item ${n}`, qty: n}});
    const work = [...[1, 2, 3, 4, 5, 6, 7, 8].map(seed), {op: 'insert' as const, values: {id: 100, name: `it's "quoted" -- ; drop`, qty: 1}}];
    const change = [
      {op: 'update' as const, values: {id: 1, qty: 10}},
      {op: 'update' as const, values: {id: 2, qty: 20}},
      {op: 'update' as const, values: {id: 3, name: 'renamed'}},
      {op: 'delete' as const, values: {id: 4}},
      {op: 'delete' as const, values: {id: 5}},
      {op: 'insert' as const, values: {id: 9, name: 'nine'}},
      {op: 'update' as const, values: {id: 9, qty: 90}},
      {op: 'delete' as const, values: {id: 6}},
      {op: 'insert' as const, values: {id: 6, name: 'six again'}},
    ];
    const outcomes: Record<string, unknown[]> = {};
    for (const name of ['items_a', 'items_b']) {
      const statements: SentStatement[] = [];
      const items = fixture.table(name);
      const seeded = await runBatch(context(fixture, alice, statements), items, work);
      const changed = await runBatch(context(fixture, alice, statements), items, change);
      // Bob's batch of Alice's keys, big enough for the set-based path: nothing.
      const bobs = await runBatch(
        context(fixture, bob),
        items,
        [1, 2, 3, 7, 8].map((id) => ({op: 'update' as const, values: {id, qty: -1}})),
      );
      expect(bobs.affected).toBe(0);
      const bobsDeletes = await runBatch(
        context(fixture, bob),
        items,
        [1, 2, 3, 7, 8].map((id) => ({op: 'delete' as const, values: {id}})),
      );
      expect(bobsDeletes.affected).toBe(0);
      outcomes[name] = [seeded.affected, changed.affected, (await rowsOf(fixture, name)).map((row) => ({...row}))];
      const setBased = name === 'items_a' && database.kind !== 'sqlite';
      expect(seeded.path).toBe(setBased ? 'set-based' : 'per-row');
      expect(changed.path).toBe(setBased ? 'set-based' : 'per-row');
      const sql = statements.map((s) => s.sql).join('\n');
      if (setBased) {
        expect(sql).toMatch(/create temporary table/);
        expect(statements.filter((s) => /^insert/.test(s.sql) && !/wb_stage/.test(s.sql)).length).toBe(3);
      } else {
        expect(sql).not.toMatch(/temporary/);
      }
    }
    expect(outcomes.items_a).toEqual(outcomes.items_b);
    expect(outcomes.items_a?.[1]).toBe(8);
  });

  it.skipIf(skip || database.kind === 'sqlite')('a set-based batch failing midway leaves nothing written', async () => {
    const items = fixture.table('items_a');
    const before = await rowsOf(fixture, 'items_a');
    await expect(
      runBatch(context(fixture, alice), items, [
        {op: 'update', values: {id: 1, qty: 111}},
        {op: 'update', values: {id: 2, qty: 222}},
        {op: 'delete', values: {id: 3}},
        {op: 'insert', values: {id: 50, name: 'new'}},
        {op: 'insert', values: {id: 7, name: 'duplicate key'}},
      ]),
    ).rejects.toMatchObject({code: 'conflict'});
    expect(await rowsOf(fixture, 'items_a')).toEqual(before);
  });
});
