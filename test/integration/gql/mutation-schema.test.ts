// The Mutation fields through GraphQL (graphql-js executing against the real databases): the
// input types leave out what the service owns, one argument per call, batches, and updateWhere
// with its cap, its empty-where refusal and the tenant policy. The schema is the real one
// (buildSchema: the query side's table types, the Mutation fields built on them).
import {graphql, printType, type GraphQLSchema} from 'graphql';
import {afterAll, describe, expect, it} from 'vitest';
import {buildSchema} from '../../../source/gql/schema/build-schema.js';
import type {SentStatement, UserContext} from '../../../source/gql/types.js';
import {testDatabases} from '../../helpers/test-databases.js';
import {openMutationFixture, user, type MutationFixture} from './mutate-fixture.js';

const databases = await testDatabases();
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

describe.each(databases.map((database) => [database.kind, database] as const))('GraphQL mutations on %s', (_kind, database) => {
  const skip = database.unavailable !== null;
  let fixture: MutationFixture;
  let schema: GraphQLSchema;
  afterAll(async () => fixture?.close());
  const run = async (source: string, who: UserContext, statements?: SentStatement[], variables?: Record<string, unknown>) => {
    const contextValue = {model: fixture.model, db: fixture.db, user: who, ...(statements ? {statements} : {})};
    return JSON.parse(JSON.stringify(await graphql({schema, source, contextValue, variableValues: variables ?? null})));
  };
  const alice = user('t1', 'alice');
  const bob = user('t2', 'bob');

  it.skipIf(skip)('shapes the inputs: identity, populate, soft-delete and hidden columns out; read-only out of updates; updateWhere only where enabled', async () => {
    fixture = await openMutationFixture(database, drops);
    schema = buildSchema(fixture.model);
    const type = (name: string) => printType(schema.getType(name)!);
    expect(type('Insert_orders')).toContain('input Insert_orders {\n  tenant_id: String\n  customer: String!\n  status: String\n  amount: Int\n  origin: String\n}');
    expect(type('Update_orders')).toContain('input Update_orders {\n  id: Int!\n  tenant_id: String\n  customer: String\n  status: String\n  amount: Int\n}');
    expect(type('Upsert_orders')).toContain('input Upsert_orders {\n  id: Int\n  tenant_id: String\n  customer: String\n  status: String\n  amount: Int\n  origin: String\n}');
    expect(type('Delete_orders')).toContain('input Delete_orders {\n  id: Int!\n}');
    expect(type('Delete_lines')).toContain('input Delete_lines {\n  order_id: Int!\n  line_no: Int!\n}');
    expect(type('UpdateWhere_orders')).toContain('set: UpdateSet_orders!\n  where: TableFilterordersInput!');
    expect(type('batch_tags')).toContain('input batch_tags {\n  insert: Insert_tags\n  update: Update_tags\n  upsert: Upsert_tags\n  delete: Delete_tags\n}');
    const mutation = printType(schema.getMutationType()!);
    expect(mutation).toMatch(/orders\(insert: Insert_orders, update: Update_orders, upsert: Upsert_orders, delete: Delete_orders, updateWhere: UpdateWhere_orders\): Int/);
    expect(mutation).toMatch(/tags\(insert: Insert_tags, update: Update_tags, upsert: Upsert_tags, delete: Delete_tags\): String/);
    expect(mutation).toMatch(/lines_batch\(actions: \[batch_lines!\]!\): Int/);
    expect(schema.getType('UpdateWhere_tags')).toBeUndefined();
  });

  it.skipIf(skip)('writes through the fields, one argument per call, with clean errors', async () => {
    const inserted = await run('mutation { orders(insert: {customer: "A", amount: 1}) }', alice);
    expect(inserted).toEqual({data: {orders: 1}});
    expect(await run('mutation { tags(insert: {code: "t-1", label: "x"}) }', alice)).toEqual({data: {tags: 't-1'}});
    expect(await run('mutation { lines(insert: {order_id: 1, line_no: 2, qty: 1}) }', alice)).toEqual({data: {lines: '{"order_id":1,"line_no":2}'}});
    const both = await run('mutation { orders(insert: {customer: "A"}, delete: {id: 1}) }', alice);
    expect(both.errors[0].message).toMatch(/exactly one of insert, update, upsert, delete, updateWhere \(got insert, delete\)/);
    const readOnly = await run('mutation { orders(update: {id: 1, origin: "x"}) }', alice);
    expect(readOnly.errors[0].message).toMatch(/Field "origin" is not defined by type "Update_orders"/);
    const other = await run('mutation { orders(insert: {customer: "A", tenant_id: "t2"}) }', alice);
    expect(other.errors[0].message).toMatch(/pinned by a row policy/);
    const injected = await run('mutation($c: String!) { orders(insert: {customer: $c}) }', alice, undefined, {c: "Robert'); DROP TABLE orders;--"});
    expect(injected.data.orders).toBe(2);
    expect(await run('mutation { tags_batch(actions: [{insert: {code: "t-2"}}, {update: {code: "t-2", label: "merged"}}, {update: {code: "t-1", label: "y"}}]) }', alice)).toEqual({
      data: {tags_batch: 2},
    });
    const two = await run('mutation { tags_batch(actions: [{insert: {code: "t-3"}, delete: {code: "t-1"}}]) }', alice);
    expect(two.errors[0].message).toMatch(/action 1 must hold exactly one/);
    expect(await run('mutation { tags(delete: {code: "t-2"}) }', bob)).toEqual({data: {tags: '0'}});
  });

  it.skipIf(skip)('updateWhere: inside the tenant, refuses an empty where, and rolls back above filtered-update-max-affected', async () => {
    // Alice has orders 1 and 2; Bob gets 3 of his own.
    for (const name of ['B1', 'B2', 'B3']) await run(`mutation { orders(insert: {customer: "${name}", status: "open"}) }`, bob);
    const statements: SentStatement[] = [];
    expect(await run('mutation { orders(updateWhere: {set: {status: "held"}, where: {status: {_eq: "new"}}}) }', alice, statements)).toEqual({data: {orders: 2}});
    expect(statements.map((s) => s.sql.split(' ')[0])).toEqual(['select', 'update']);
    // Bob's filter names Alice's rows: his update reaches none of them.
    expect(await run('mutation { orders(updateWhere: {set: {status: "bob"}, where: {customer: {_eq: "A"}}}) }', bob)).toEqual({data: {orders: 0}});
    for (const where of ['{}', '{and: []}', '{status: {}}', '{or: [{}]}']) {
      const empty = await run(`mutation { orders(updateWhere: {set: {status: "all"}, where: ${where}}) }`, alice);
      expect(empty.errors[0].message).toMatch(/needs a non-empty where/);
    }
    await run('mutation { orders(insert: {customer: "C", status: "held"}) }', alice);
    await run('mutation { orders(insert: {customer: "D", status: "held"}) }', alice);
    const over = await run('mutation { orders(updateWhere: {set: {status: "done"}, where: {status: {_eq: "held"}}}) }', alice);
    expect(over.errors[0].message).toMatch(/matches 4 rows, over its filtered-update-max-affected of 3: nothing was updated/);
    const rows = await fixture
      .db(`${fixture.table('orders').schema}.orders`)
      .select('customer', 'status', 'tenant_id')
      .orderBy('id');
    expect(rows.filter((row) => row.status === 'done')).toEqual([]);
    expect(rows.filter((row) => row.tenant_id === 't2').map((row) => row.status)).toEqual(['open', 'open', 'open']);
    const readOnly = await run('mutation { orders(updateWhere: {set: {tenant_id: "t2"}, where: {customer: {_eq: "A"}}}) }', alice);
    expect(readOnly.errors[0].message).toMatch(/pinned/);
  });
});
