// EAV meta tables end to end (spec 3, `eav-*`): a small schema made in an empty database of each
// kind, opened through openGqlService with real metadata rules. `products` is tenant-isolated and
// soft-deleted, its attributes in `product_attributes` (text values); `parts` has integer-valued
// attributes in `part_props` and hard deletes. Attributes are read (`_meta`, `_attributes`) in the
// root field's one statement, filtered by `_attr`, written through `_meta` in every mutation kind,
// rolled back with a failing batch, and never seen, matched or written across tenants or on a
// soft-deleted row; bad input is a GraphQL error without a stack.
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openGqlService} from '../../../source/gql/service.js';
import type {GqlExecuteResult, GqlService, UserContext} from '../../../source/gql/types.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';

const databases = await gqlDatabases();

const RULES = [
  '*.*|has(tenant_id) { tenant-filter: tenant_id }',
  '*.products { soft-delete: deleted_at }',
  '*.products.updated_by { populate: updated-by }',
  '*.product_attributes { eav-parent: products; eav-fk: product_id; eav-key: name; eav-value: value }',
  '*.part_props { eav-parent: parts; eav-fk: part_id; eav-key: k; eav-value: v }',
  ':root { generic-table: enabled }',
];

const person = (sub: string, tenant: number): UserContext => ({claims: {sub, tenant_id: tenant}, roles: [], auditKey: sub, anonymous: false});
const ann = person('ann', 1);
const gus = person('gus', 2);
const annAdmin: UserContext = {...ann, roles: ['gql-admin']};

type Row = Record<string, unknown>;

async function createSchema(db: Knex): Promise<void> {
  await db.schema.createTable('products', (t) => {
    t.increments('id');
    t.integer('tenant_id').notNullable();
    t.string('name', 100).notNullable().unique();
    t.datetime('deleted_at').nullable();
    t.string('updated_by', 50).nullable();
  });
  await db.schema.createTable('product_attributes', (t) => {
    t.increments('id');
    t.integer('product_id').unsigned().notNullable().references('id').inTable('products');
    // A CHECK every database enforces: an attribute write that fails after its parent's write.
    t.string('name', 100).notNullable().checkLength('<=', 20);
    t.string('value', 200).nullable();
  });
  await db.schema.createTable('parts', (t) => {
    t.increments('id');
    t.integer('tenant_id').notNullable();
    t.string('label', 100);
  });
  await db.schema.createTable('part_props', (t) => {
    t.increments('id');
    t.integer('part_id').unsigned().notNullable().references('id').inTable('parts');
    t.string('k', 100).notNullable();
    t.integer('v');
  });
  await db('products').insert([
    {tenant_id: 1, name: 'Shirt'},
    {tenant_id: 1, name: 'Mug'},
    {tenant_id: 2, name: 'Secret'},
    {tenant_id: 1, name: 'Gone', deleted_at: new Date('2024-01-01T00:00:00Z')},
  ]);
  await db('product_attributes').insert([
    {product_id: 1, name: 'color', value: 'red'},
    {product_id: 1, name: 'size', value: 'L'},
    {product_id: 2, name: 'color', value: 'blue'},
    {product_id: 3, name: 'color', value: 'red'},
    {product_id: 3, name: 'code', value: 'xyz'},
    {product_id: 4, name: 'color', value: 'red'},
  ]);
  await db('parts').insert([
    {tenant_id: 1, label: 'bolt'},
    {tenant_id: 1, label: 'nut'},
  ]);
  await db('part_props').insert([
    {part_id: 1, k: 'weight', v: 5},
    {part_id: 2, k: 'weight', v: 2},
  ]);
}

describe.each(databases)('EAV attributes through the service on $kind', (database) => {
  const maybe = database.unavailable ? it.skip : it;
  let fixture: GqlFixture | undefined;
  let service: GqlService;
  let db: Knex;

  const run = async (who: UserContext, query: string, debug = false): Promise<GqlExecuteResult> =>
    JSON.parse(JSON.stringify(await service.execute({query, user: who, debug}))) as GqlExecuteResult;
  const ask = async (who: UserContext, query: string): Promise<Record<string, unknown>> => {
    const result = await run(who, query);
    expect(result.errors, query).toBeUndefined();
    return result.data as Record<string, unknown>;
  };
  const products = async (who: UserContext, args: string, fields = 'id') =>
    ((await ask(who, `{ products(${args || 'sort: [id_asc]'}) { data { ${fields} } } }`)).products as {data: Row[]}).data;
  const ids = async (who: UserContext, filter: string) => (await products(who, `filter: ${filter}, sort: [id_asc]`)).map((row) => Number(row.id));
  /** The attributes the database holds for a product, as a map. */
  const stored = async (productId: number): Promise<Row> =>
    Object.fromEntries((await db('product_attributes').where({product_id: productId}).orderBy('name')).map((row: Row) => [row.name, row.value]));
  /** A query that must fail: its one error's message, checked to carry no stack. */
  const refused = async (who: UserContext, query: string): Promise<string> => {
    const result = await run(who, query);
    expect(result.errors?.length, query).toBe(1);
    const error = result.errors![0]!;
    expect(JSON.stringify(error)).not.toMatch(/\n\s+at |\.ts:\d+/);
    expect(error.extensions?.stacktrace).toBeUndefined();
    return error.message;
  };

  beforeAll(async () => {
    if (database.unavailable) return;
    fixture = await database.createEmpty();
    db = knex({...fixture.knexConfig, pool: {min: 0, max: 1}});
    await createSchema(db);
    service = await openGqlService(settingsFor(fixture, RULES), {poolMax: 2});
  });
  afterAll(async () => {
    await service?.close();
    await db?.destroy();
    await fixture?.drop();
  });

  maybe('reads attributes as a map and a list, in the root field’s one statement; the meta table is not served', async () => {
    const result = await run(ann, '{ products(sort: [id_asc]) { data { id _meta _attributes { key value } } } }', true);
    expect(result.errors).toBeUndefined();
    expect((result.data?.products as {data: Row[]}).data).toEqual([
      {
        id: 1,
        _meta: {color: 'red', size: 'L'},
        _attributes: [
          {key: 'color', value: 'red'},
          {key: 'size', value: 'L'},
        ],
      },
      {id: 2, _meta: {color: 'blue'}, _attributes: [{key: 'color', value: 'blue'}]},
    ]);
    expect((result.extensions?.sql as {count: number}).count).toBe(1);
    // Aliases, and a row without attributes: an empty object and an empty list.
    await db('products').insert({tenant_id: 1, name: 'Plain'});
    const plain = await products(ann, 'filter: {name: {_eq: "Plain"}}', 'm: _meta a: _attributes { k: key }');
    expect(plain).toEqual([{m: {}, a: []}]);
    // Integer values keep their type.
    const parts = (await ask(ann, '{ parts(sort: [id_asc]) { data { label _meta _attributes { key value } } } }')).parts as {data: Row[]};
    expect(parts.data[0]).toEqual({label: 'bolt', _meta: {weight: 5}, _attributes: [{key: 'weight', value: 5}]});
    expect(await refused(ann, '{ product_attributes { data { id } } }')).toMatch(/Cannot query field "product_attributes"/);
    expect(await refused(ann, '{ products { data { product_attributes { id } } } }')).toMatch(/Cannot query field "product_attributes"/);
  });

  maybe('filters by attribute with the string operators; _null: true is the attribute’s absence', async () => {
    expect(await ids(ann, '{_attr: {color: {_eq: "red"}}}')).toEqual([1]);
    expect(await ids(ann, '{_attr: {color: {_in: ["red", "blue"]}}}')).toEqual([1, 2]);
    expect(await ids(ann, '{_attr: {color: {_starts_with: "bl"}}}')).toEqual([2]);
    expect(await ids(ann, '{_attr: {color: {_neq: "red"}}}')).toEqual([2]);
    expect(await ids(ann, '{_attr: {color: {_eq: "red"}, size: {_eq: "L"}}}')).toEqual([1]);
    expect(await ids(ann, '{_attr: {color: {_eq: "red"}, size: {_eq: "S"}}}')).toEqual([]);
    expect(await ids(ann, '{_attr: {size: {_null: false}}}')).toEqual([1]);
    expect((await ids(ann, '{_attr: {size: {_null: true}}}')).filter((id) => id <= 4)).toEqual([2]);
    expect(await ids(ann, '{or: [{_attr: {size: {_eq: "L"}}}, {name: {_eq: "Mug"}}]}')).toEqual([1, 2]);
    const parts = (await ask(ann, '{ parts(filter: {_attr: {weight: {_gt: 3}}}) { data { label } } }')).parts as {data: Row[]};
    expect(parts.data).toEqual([{label: 'bolt'}]);
  });

  maybe('tenant and soft delete: another tenant’s and a deleted row’s attributes are never returned nor matched', async () => {
    expect(await products(gus, '', 'id _meta')).toEqual([{id: 3, _meta: {color: 'red', code: 'xyz'}}]);
    // Product 3 (tenant 2) and 4 (deleted) are red too: neither matches for ann.
    expect(await ids(ann, '{_attr: {color: {_eq: "red"}}}')).toEqual([1]);
    expect(await ids(ann, '{_attr: {code: {_eq: "xyz"}}}')).toEqual([]);
    expect(await ids(gus, '{_attr: {color: {_eq: "red"}}}')).toEqual([3]);
    expect(await ids(gus, '{_attr: {size: {_eq: "L"}}}')).toEqual([]);
    // `_table` takes the same filter, and never serves the meta table itself.
    const generic = (await ask(annAdmin, '{ _table(name: "products", filter: {_attr: {color: {_eq: "red"}}}) }'))._table as Row[];
    expect(generic.map((row) => Number(row.id))).toEqual([1]);
    expect(await refused(annAdmin, '{ _table(name: "product_attributes") }')).toMatch(/_table: no table "product_attributes"/);
    // Nested in an aggregate's filter too.
    const counted = (await ask(ann, '{ productsAggregate(filter: {_attr: {color: {_eq: "red"}}}) { _count } }')).productsAggregate;
    expect(counted).toEqual([{_count: 1}]);
  });

  maybe('writes attributes in insert, update, upsert and batch; null removes one, others are kept', async () => {
    const inserted = (await ask(ann, 'mutation { products(insert: {name: "Hat", _meta: {color: "green", size: "M"}}) }')).products as number;
    expect(await stored(inserted)).toEqual({color: 'green', size: 'M'});
    expect((await db('products').where({id: inserted}).first()).tenant_id).toBe(1);

    expect((await ask(ann, `mutation { products(update: {id: ${inserted}, _meta: {size: null, fit: "slim"}}) }`)).products).toBe(inserted);
    expect(await stored(inserted)).toEqual({color: 'green', fit: 'slim'});
    // An attributes-only update is a change of the row: its populate stamps are written.
    expect((await db('products').where({id: inserted}).first()).updated_by).toBe('ann');

    await ask(ann, `mutation { products(update: {id: ${inserted}, name: "Cap", _meta: {color: "black"}}) }`);
    expect((await db('products').where({id: inserted}).first()).name).toBe('Cap');
    expect(await stored(inserted)).toEqual({color: 'black', fit: 'slim'});

    await ask(ann, `mutation { products(upsert: {id: ${inserted}, name: "Cap", _meta: {fit: "loose"}}) }`);
    expect(await stored(inserted)).toEqual({color: 'black', fit: 'loose'});

    const batch = await ask(
      ann,
      `mutation { products_batch(actions: [{insert: {name: "Scarf", _meta: {color: "grey"}}}, {update: {id: 2, _meta: {color: "teal", size: "S"}}}, {update: {id: 2, _meta: {size: "XS"}}}]) }`,
    );
    expect(batch.products_batch).toBe(2);
    expect(await stored(2)).toEqual({color: 'teal', size: 'XS'});
    const scarf = Number((await db('products').where({name: 'Scarf'}).first()).id);
    expect(await stored(scarf)).toEqual({color: 'grey'});
    // And read back through GraphQL.
    expect(await products(ann, `filter: {id: {_eq: ${scarf}}}`, '_meta')).toEqual([{_meta: {color: 'grey'}}]);

    // Integer attributes.
    await ask(ann, 'mutation { parts(update: {id: 2, _meta: {weight: 3, length: 40}}) }');
    expect((await ask(ann, '{ parts(filter: {id: {_eq: 2}}) { data { _meta } } }')).parts).toEqual({data: [{_meta: {length: 40, weight: 3}}]});
  });

  maybe('a failing mutation leaves no attribute and no parent behind (one transaction)', async () => {
    // The parent row is written first; the over-long attribute name then fails: both are rolled back.
    const long = 'x'.repeat(30);
    const message = await refused(ann, `mutation { products(insert: {name: "Orphan", _meta: {ok: "1", ${long}: "2"}}) }`);
    expect(message).toMatch(/the database refused the write/);
    expect(await db('products').where({name: 'Orphan'})).toEqual([]);
    expect(await db('product_attributes').where({name: 'ok'})).toEqual([]);
    // An update of an existing row: its column change is rolled back with the attributes.
    await refused(ann, `mutation { products(update: {id: 1, name: "Renamed", _meta: {color: "pink", ${long}: "2"}}) }`);
    expect((await db('products').where({id: 1}).first()).name).toBe('Shirt');
    expect(await stored(1)).toEqual({color: 'red', size: 'L'});
  });

  maybe('a failing batch leaves no attribute behind (one transaction)', async () => {
    const before = await db('product_attributes').count({n: '*'}).first();
    // The second insert breaks the unique name after the first wrote its row and its attributes.
    const message = await refused(ann, 'mutation { products_batch(actions: [{insert: {name: "Doomed", _meta: {fate: "rollback"}}}, {insert: {name: "Shirt"}}]) }');
    expect(message).toMatch(/conflicts with an existing row/);
    expect(await db('products').where({name: 'Doomed'})).toEqual([]);
    expect(await db('product_attributes').where({name: 'fate'})).toEqual([]);
    expect(await db('product_attributes').count({n: '*'}).first()).toEqual(before);
  });

  maybe('another tenant’s or a deleted row’s attributes cannot be written', async () => {
    // gus (tenant 2) on ann's product 1: with and without a column, updated or upserted, nothing changes.
    expect((await ask(gus, 'mutation { products(update: {id: 1, _meta: {color: "hacked"}}) }')).products).toBeNull();
    expect((await ask(gus, 'mutation { products(update: {id: 1, name: "Pwned", _meta: {color: "hacked"}}) }')).products).toBeNull();
    expect((await ask(gus, 'mutation { products_batch(actions: [{update: {id: 1, _meta: {color: "hacked"}}}]) }')).products_batch).toBe(0);
    expect(await stored(1)).toEqual({color: 'red', size: 'L'});
    expect((await db('products').where({id: 1}).first()).updated_by).toBeNull();
    // parts has no stamps: its attributes-only update checks the row inside the update policy itself.
    expect((await ask(gus, 'mutation { parts(update: {id: 2, _meta: {weight: 99}}) }')).parts).toBeNull();
    expect(await db('part_props').where({part_id: 2, k: 'weight'}).first('v')).toEqual({v: 3});
    // The soft-deleted product 4 is gone for writes as well.
    expect((await ask(ann, 'mutation { products(update: {id: 4, _meta: {color: "back"}}) }')).products).toBeNull();
    expect(await stored(4)).toEqual({color: 'red'});
  });

  maybe('a soft delete keeps the attributes out of sight; a hard delete removes them in the same transaction', async () => {
    const id = (await ask(ann, 'mutation { products(insert: {name: "Lamp", _meta: {watts: "40"}}) }')).products as number;
    expect(await ids(ann, '{_attr: {watts: {_eq: "40"}}}')).toEqual([id]);
    expect((await ask(ann, `mutation { products(delete: {id: ${id}}) }`)).products).toBe(1);
    expect(await ids(ann, '{_attr: {watts: {_eq: "40"}}}')).toEqual([]);
    expect(await stored(id)).toEqual({watts: '40'});
    // parts deletes hard: its props go first (no ON DELETE CASCADE on the key), in the delete's transaction.
    expect((await ask(ann, 'mutation { parts(delete: {id: 1}) }')).parts).toBe(1);
    expect(await db('part_props').where({part_id: 1})).toEqual([]);
    expect(await db('parts').where({id: 1})).toEqual([]);
  });

  maybe('bad input is a GraphQL error naming the mistake, without a stack', async () => {
    expect(await refused(ann, '{ products(filter: {_attr: {color: {_foo: "x"}}}) { data { id } } }')).toMatch(
      /unknown attribute operator _foo on _attr\.color of products: use _eq/,
    );
    expect(await refused(ann, '{ products(filter: {_attr: {color: {_eq: 5}}}) { data { id } } }')).toMatch(/_attr\.color\._eq on products takes a String, not 5/);
    expect(await refused(ann, '{ products(filter: {_attr: ["color"]}) { data { id } } }')).toMatch(/_attr on products takes an object/);
    expect(await refused(ann, '{ products(filter: {_attr: {color: "red"}}) { data { id } } }')).toMatch(/_attr\.color on products takes an object of operators/);
    expect(await refused(ann, '{ parts(filter: {_attr: {weight: {_contains: "1"}}}) { data { id } } }')).toMatch(/unknown attribute operator _contains/);
    expect(await refused(ann, 'mutation { products(insert: {name: "Bad", _meta: "red"}) }')).toMatch(/_meta on products takes an object of attribute → value/);
    expect(await refused(ann, 'mutation { products(update: {id: 1, _meta: ["red"]}) }')).toMatch(/_meta on products takes an object/);
    expect(await refused(ann, 'mutation { products(update: {id: 1, _meta: {size: 5}}) }')).toMatch(/_meta\.size on products \(null removes it\) takes a String, not 5/);
    expect(await refused(ann, 'mutation { parts(update: {id: 2, _meta: {weight: "heavy"}}) }')).toMatch(/takes a Int, not "heavy"/);
    expect(await refused(ann, 'mutation { products(delete: {id: 1, _meta: {a: "b"}}) }')).toMatch(/"_meta" is not defined by type "Delete_products"/);
    // Nothing was written by any of them.
    expect(await db('products').where({name: 'Bad'})).toEqual([]);
    expect(await stored(1)).toEqual({color: 'red', size: 'L'});
  });
});
