// SQL generation of the read path, without a database: limits, sorts, every filter operator,
// filters through links, the one-statement JSON shape per provider, and the schema's names.
import {graphql, printSchema} from 'graphql';
import knex from 'knex';
import {describe, expect, it} from 'vitest';
import {applyFilter} from '../../../source/gql/query/filter-sql.js';
import {rootStatement} from '../../../source/gql/query/json-sql.js';
import {effectiveLimit} from '../../../source/gql/query/limits.js';
import {sortKeys} from '../../../source/gql/query/plan.js';
import {buildSchema} from '../../../source/gql/schema/build-schema.js';
import type {GqlRequestContext, Provider} from '../../../source/gql/types.js';
import {musicModel} from '../../integration/gql/music-fixture.js';

const clients: Record<Provider, string> = {sqlite: 'better-sqlite3', postgres: 'pg', mysql: 'mysql2', sqlserver: 'mssql'};

function context(provider: Provider, overrides = {}): GqlRequestContext {
  const model = musicModel(provider, provider === 'sqlite' ? 'main' : 'music', overrides);
  return {model, db: knex({client: clients[provider], useNullAsDefault: true}), user: {claims: {tenant_id: 'a'}, roles: [], anonymous: false}};
}

const table = (ctx: GqlRequestContext, name: string) => ctx.model.byName.get(name)!;

function filterSql(provider: Provider, filter: Record<string, unknown>, name = 'track') {
  const ctx = context(provider);
  const qb = ctx.db.from({t0: name}).select('t0.track_id');
  applyFilter(qb, table(ctx, name), filter, ctx, 't0');
  return qb.toSQL();
}

describe('limits', () => {
  const ctx = context('sqlite', {maxQueryRows: 500, defaultLimit: 40});
  const track = table(ctx, 'track');
  it('unspecified → the table default, else the model default; -1 → max-query-rows; everything clamped', () => {
    expect(effectiveLimit(ctx.model, track, undefined, 'root')).toBe(40);
    expect(effectiveLimit(ctx.model, {...track, defaultLimit: 7}, null, 'root')).toBe(7);
    expect(effectiveLimit(ctx.model, track, -1, 'root')).toBe(500);
    expect(effectiveLimit(ctx.model, track, 1e9, 'per parent')).toBe(500);
    expect(effectiveLimit(ctx.model, track, 0, 'root')).toBe(0);
    expect(effectiveLimit(ctx.model, {...track, defaultLimit: 9000}, undefined, 'root')).toBe(500);
  });
  it('a negative limit other than -1 is refused', () => {
    expect(() => effectiveLimit(ctx.model, track, -5, 'root')).toThrow(/limit must be ≥ 0, or -1/);
  });
});

describe('sort', () => {
  const ctx = context('sqlite');
  it('enum values become columns, the primary key breaks ties, unknown and hidden columns are refused', () => {
    expect(sortKeys(table(ctx, 'track'), ['name_desc'])).toEqual([
      {column: 'name', descending: true},
      {column: 'track_id', descending: false},
    ]);
    expect(() => sortKeys(table(ctx, 'artist'), ['secret_asc'])).toThrow(/unknown sort/);
    expect(() => sortKeys(table(ctx, 'track'), ['name; drop table x_asc'])).toThrow(/unknown sort/);
  });
});

describe('filters', () => {
  it('every operator is a bound value', () => {
    const {sql, bindings} = filterSql('postgres', {
      track_id: {_eq: 1, _neq: 2, _gt: 3, _gte: 4, _lt: 5, _lte: 6, _in: [7, 8], _nin: [9], _between: [10, 11], _null: false},
      name: {_contains: 'a%b', _starts_with: 'c', _ends_with: 'd', _like: 'e_'},
    });
    expect(sql).toBe(
      'select "t0"."track_id" from "track" as "t0" where "t0"."track_id" = ? and "t0"."track_id" <> ? and "t0"."track_id" > ? and "t0"."track_id" >= ? and "t0"."track_id" < ? and "t0"."track_id" <= ? and "t0"."track_id" in (?, ?) and "t0"."track_id" not in (?) and "t0"."track_id" between ? and ? and "t0"."track_id" is not null and "t0"."name" like ? and "t0"."name" like ? and "t0"."name" like ? and "t0"."name" like ?',
    );
    expect(bindings).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, '%a\\%b%', 'c%', '%d', 'e_']);
  });
  it('SQLite says its LIKE escape', () => {
    expect(filterSql('sqlite', {name: {_contains: '_'}}).sql).toContain("like ? escape '\\'");
  });
  it('and/or group; null _eq is IS NULL; an empty _in matches nothing', () => {
    const {sql} = filterSql('sqlite', {or: [{track_id: {_eq: null}}, {and: [{track_id: {_in: []}}, {name: {_neq: null}}]}]});
    expect(sql).toBe('select `t0`.`track_id` from `track` as `t0` where ((`t0`.`track_id` is null) or (((1 = 0) and (`t0`.`name` is not null))))');
  });
  it('a filter through links is EXISTS with the target policy inside', () => {
    const {sql, bindings} = filterSql('postgres', {note: {body: {_eq: 'x'}}}, 'artist');
    expect(sql).toMatch(
      /where exists \(select 1 from "music"\."note" as "e\d+" where "e\d+"\."artist_id" = "t0"\."artist_id" and "e\d+"\."tenant_id" = \? and "e\d+"\."deleted_at" is null and "e\d+"\."body" = \?\)/,
    );
    expect(bindings).toEqual(['a', 'x']);
  });
  it('many-to-many filters join the junction', () => {
    expect(filterSql('mysql', {playlist: {name: {_eq: 'p'}}}).sql).toMatch(
      /exists \(select 1 from `music`\.`playlist` as `e\d+` inner join `music`\.`playlist_track` as `e\d+_j` on `e\d+_j`\.`playlist_id` = `e\d+`\.`playlist_id` where `e\d+_j`\.`track_id` = `t0`\.`track_id`/,
    );
  });
  it('hidden, unknown, string-only and malformed filters are refused', () => {
    expect(() => filterSql('sqlite', {secret: {_eq: 'x'}}, 'artist')).toThrow(/unknown filter field secret/);
    expect(() => filterSql('sqlite', {track_id: {_contains: '1'}})).toThrow(/string columns/);
    expect(() => filterSql('sqlite', {track_id: {_between: [1]}})).toThrow(/exactly two/);
    expect(() => filterSql('sqlite', {track_id: {_drop: 1}})).toThrow(/unknown filter operator/);
    expect(() => filterSql('sqlite', {track_id: 5})).toThrow(/object of operators/);
  });
});

describe('the one-statement shape', () => {
  const plan = (ctx: GqlRequestContext) => ({
    table: table(ctx, 'album'),
    sort: [{column: 'album_id', descending: false}],
    limit: 10,
    offset: 0,
    fields: [
      {kind: 'column' as const, key: 'title', column: table(ctx, 'album').columns[1]!},
      {
        kind: 'many' as const,
        key: 'tracks',
        link: table(ctx, 'album').links[1]!,
        collection: {
          table: table(ctx, 'track'),
          sort: [{column: 'track_id', descending: false}],
          limit: 5,
          offset: 0,
          fields: [{kind: 'column' as const, key: 'price', column: table(ctx, 'track').columns[6]!}],
        },
      },
    ],
  });
  it('PostgreSQL: json_build_object and json_agg over an ordered, limited subquery; decimals as text', () => {
    const ctx = context('postgres');
    const {sql, bindings} = rootStatement(ctx, plan(ctx), true).toSQL();
    expect(sql).toMatch(
      /^select json_build_object\('title', "t0"\."title", 'tracks', \(select coalesce\(json_agg\("s\d+"\."j"\), '\[\]'::json\) from \(select json_build_object\('price', "t\d+"\."unit_price"::text\) as j from "music"\."track"/,
    );
    expect(sql).toMatch(/count\(\*\) over \(\) as total/);
    expect(bindings).toEqual([5, 10]);
  });
  it('SQLite: json_object and json_group_array, nested JSON re-marked with json()', () => {
    const ctx = context('sqlite');
    expect(rootStatement(ctx, plan(ctx), false).toSQL().sql).toMatch(
      /^select json_object\('title', `t0`\.`title`, 'tracks', json\(\(select json_group_array\(json\(`s\d+`\.`j`\)\) from \(select json_object\('price', cast\(`t\d+`\.`unit_price` as text\)\) as j/,
    );
  });
  it('MariaDB: JSON_ARRAYAGG with ORDER BY and LIMIT inside (no correlated derived tables)', () => {
    const ctx = context('mysql');
    expect(rootStatement(ctx, plan(ctx), false).toSQL().sql).toMatch(
      /coalesce\(json_arrayagg\(json_object\('price', cast\(`t\d+`\.`unit_price` as char\)\) order by `t\d+`\.`track_id` asc limit \?\), json_array\(\)\)/,
    );
  });
});

describe('SQL Server (SQL text only: no server here)', () => {
  it('objects by FOR JSON PATH, lists by STRING_AGG over a numbered, limited derived table, nested JSON kept by JSON_QUERY', () => {
    const ctx = context('sqlserver');
    const album = table(ctx, 'album');
    const track = table(ctx, 'track');
    const plan = {
      table: album,
      sort: [{column: 'album_id', descending: false}],
      limit: 10,
      offset: 0,
      fields: [
        {kind: 'column' as const, key: 'title', column: album.columns[1]!},
        {
          kind: 'single' as const,
          key: 'artist',
          link: album.links[0]!,
          table: table(ctx, 'artist'),
          fields: [{kind: 'column' as const, key: 'name', column: table(ctx, 'artist').columns[1]!}],
        },
        {
          kind: 'many' as const,
          key: 'tracks',
          link: album.links[1]!,
          collection: {
            table: track,
            sort: [{column: 'track_id', descending: true}],
            limit: 5,
            offset: 0,
            fields: [{kind: 'column' as const, key: 'price', column: track.columns[6]!}],
          },
        },
      ],
    };
    const {sql, bindings} = rootStatement(ctx, plan, false).toSQL();
    expect(sql).toMatch(
      /^select top \(\?\) \(select \[t0\]\.\[title\] as \[title\], json_query\(\(select \(select \[t\d+\]\.\[name\] as \[name\] for json path, without_array_wrapper, include_null_values\) from \[music\]\.\[artist\] as \[t\d+\] where \[t\d+\]\.\[artist_id\] = \[t0\]\.\[artist_id\]\)\) as \[artist\], /,
    );
    expect(sql).toMatch(
      /json_query\(coalesce\(\(select '\[' \+ string_agg\(cast\(\[s\d+\]\.\[j\] as nvarchar\(max\)\), ','\) within group \(order by \[s\d+\]\.\[rn\]\) \+ '\]' from \(select /,
    );
    expect(sql).toMatch(
      /row_number\(\) over \(order by \[t\d+\]\.\[track_id\] desc\) as rn from \[music\]\.\[track\] as \[t\d+\] where \[t\d+\]\.\[album_id\] = \[t0\]\.\[album_id\] order by \[t\d+\]\.\[track_id\] desc/,
    );
    expect(sql).toContain('cast([t');
    expect(sql).toMatch(/for json path, without_array_wrapper, include_null_values\) as j from \[music\]\.\[album\] as \[t0\] order by \[t0\]\.\[album_id\] asc$/);
    expect(bindings).toContain(5);
    expect(bindings).toContain(10);
  });
});

describe('BifrostQL conventions: a nested page and _agg, as SQL text on SQL Server (no server here; the others run live)', () => {
  it('the page is one object of its response keys inside the row, total a correlated count, _agg a correlated aggregate', () => {
    const ctx = context('sqlserver', {conventions: 'bifrost'});
    const album = table(ctx, 'album');
    const track = table(ctx, 'track');
    const price = track.columns[6]!;
    const plan = {
      table: album,
      sort: [{column: 'album_id', descending: false}],
      limit: 10,
      offset: 0,
      fields: [
        {
          kind: 'many' as const,
          key: 'tracks',
          link: album.links[1]!,
          collection: {table: track, sort: [{column: 'track_id', descending: false}], limit: 5, offset: 2, fields: [{kind: 'column' as const, key: 'price', column: price}]},
          page: [
            {key: 'rows', field: 'data' as const},
            {key: 'n', field: 'total' as const},
            {key: 'limit', field: 'limit' as const},
            {key: 'offset', field: 'offset' as const},
          ],
        },
        {kind: 'agg' as const, key: 'sum', operation: 'Sum' as const, path: [{link: album.links[1]!, table: track}], column: price},
      ],
    };
    const {sql} = rootStatement(ctx, plan, false).toSQL();
    expect(sql).toMatch(/^select top \(\?\) \(select json_query\(\(select json_query\(coalesce\(\(select '\[' \+ string_agg/);
    expect(sql).toMatch(
      /as \[rows\], \(select count\(\*\) from \[music\]\.\[track\] as \[t\d+\] where \[t\d+\]\.\[album_id\] = \[t0\]\.\[album_id\]\) as \[n\], 5 as \[limit\], 2 as \[offset\] for json path, without_array_wrapper, include_null_values\)\) as \[tracks\]/,
    );
    expect(sql).toMatch(/\(select sum\(\[t\d+\]\.\[unit_price\]\) from \[music\]\.\[track\] as \[t\d+\] where \[t\d+\]\.\[album_id\] = \[t0\]\.\[album_id\]\) as \[sum\]/);
  });
});

describe('the schema', () => {
  it('names as upstream, hidden things nowhere, procedures and admin fields when enabled', () => {
    const ctx = context('postgres');
    const model = {
      ...ctx.model,
      procedures: [{schema: 'music', dbName: 'top_tracks', name: 'top_tracks', params: [{name: 'n', kind: 'int' as const, mode: 'in' as const}], returnsRows: true}],
    };
    const schema = buildSchema(model);
    const sdl = printSchema(schema);
    const fields = schema.getQueryType()!.getFields();
    expect(fields.track!.args.map((arg) => `${arg.name}: ${String(arg.type)}`)).toEqual(['limit: Int', 'offset: Int', 'sort: [trackSortEnum!]', 'filter: TableFiltertrackInput']);
    expect(String(fields.track!.type)).toBe('track_paged');
    expect(sdl).toContain('trackAggregate(filter: TableFiltertrackInput, groupBy: [trackEnum!]): [track_aggregate!]!');
    expect(sdl).toMatch(/type track_aggregate \{[^}]*_count: Int!\n {2}_sum: track_aggregateFields[^}]*\}/);
    expect(sdl).toMatch(/type track_paged \{\n {2}data: \[track!\]!\n {2}total: Int!\n {2}offset: Int\n {2}limit: Int\n\}/);
    expect(sdl).toContain('top_tracks(n: Int): [JSON!]!');
    expect(sdl).toContain('_table(name: String!, limit: Int, offset: Int, filter: JSON): [JSON!]!');
    expect(fields._rawQuery!.args.map((arg) => `${arg.name}: ${String(arg.type)}`)).toEqual(['sql: String!', 'params: [JSON]', 'timeout: Int']);
    expect(sdl).not.toMatch(/secret|playlist_track/);
    expect(sdl).toMatch(/input FilterTypeIntInput \{[^}]*_between: \[Int!\][^}]*\}/);
    expect(sdl).not.toMatch(/input FilterTypeIntInput \{[^}]*_contains/);
    expect(sdl).toMatch(/input FilterTypeStringInput \{[^}]*_starts_with/);
  });
  it('schema-display field nests tables under a field per schema', async () => {
    const ctx = context('sqlite');
    const tables = ctx.model.tables.map((t) => ({...t, schemaField: 'music'}));
    const model = {...ctx.model, tables, byKey: new Map(tables.map((t) => [t.key, t])), schemaDisplay: 'field' as const};
    const sdl = printSchema(buildSchema(model));
    expect(sdl).toMatch(/type Query \{\n {2}music: music_schema!/);
    expect(sdl).toMatch(/type music_schema \{\n {2}artist\(/);
  });
  it('an empty database still gives a valid schema; admin fields absent unless enabled', async () => {
    const ctx = context('sqlite', {tables: [], byKey: new Map(), byName: new Map(), rawSql: {enabled: false, role: 'r'}, genericTable: {enabled: false, role: 'g'}});
    const schema = buildSchema(ctx.model);
    expect(await graphql({schema, source: '{ _empty }'})).toEqual({data: {_empty: null}});
    expect(printSchema(schema)).not.toMatch(/_table|_rawQuery/);
  });
});
