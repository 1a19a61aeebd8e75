// The read side on every provider: the same queries, the same answers, on SQLite, PostgreSQL and
// MariaDB, with the statement count of each request checked (no N+1).
import {graphql} from 'graphql';
import type {GraphQLSchema} from 'graphql';
import type {Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildSchema} from '../../../source/gql/schema/build-schema.js';
import type {GqlModel, GqlRequestContext, SentStatement, UserContext} from '../../../source/gql/types.js';
import {testDatabases} from '../../helpers/test-databases.js';
import {ARTISTS, TRACK_COUNT, connect, createMusic, musicModel} from './music-fixture.js';

const databases = await testDatabases();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read by their shape
type Answer = Record<string, any>;
const anonymous: UserContext = {claims: {}, roles: [], anonymous: true};

describe.each(databases)('GraphQL queries on $kind', (database) => {
  let drop: () => Promise<void> = async () => undefined;
  let db: Knex;
  let model: GqlModel;
  let schema: GraphQLSchema;

  beforeAll(async () => {
    if (database.unavailable) return;
    const created = await database.create();
    drop = created.drop;
    const connection = connect(database.kind, created.connection);
    db = connection.db;
    await createMusic(db);
    model = musicModel(database.kind, connection.schema);
    schema = buildSchema(model);
  });
  afterAll(async () => {
    await db?.destroy();
    await drop();
  });

  async function run(source: string, options: {variables?: Record<string, unknown>; user?: UserContext; model?: GqlModel} = {}) {
    const statements: SentStatement[] = [];
    const contextValue: GqlRequestContext = {model: options.model ?? model, db, user: options.user ?? anonymous, statements};
    const result = await graphql({schema: options.model ? buildSchema(options.model) : schema, source, contextValue, variableValues: options.variables ?? null});
    return {data: result.data as Answer | null | undefined, errors: result.errors?.map((error) => error.message) ?? [], statements};
  }

  const maybe = database.unavailable ? it.skip : it;

  maybe('flat list: columns of every kind, limit, sort, total, in one statement', async () => {
    const {data, errors, statements} = await run(
      `{ track(limit: 3, sort: [track_id_asc]) { total offset limit data { track_id name bytes unit_price rating explicit released } } }`,
    );
    expect(errors).toEqual([]);
    expect(data?.track.total).toBe(TRACK_COUNT);
    expect(data?.track.limit).toBe(3);
    expect(data?.track.offset).toBe(0);
    const [first, second] = data?.track.data ?? [];
    expect(first).toMatchObject({track_id: 1, name: 'Track 1.1', bytes: '9007199254740993', rating: 0.25, explicit: false});
    expect(first.unit_price).toMatch(/^0\.99/);
    expect(String(first.released)).toMatch(/^2020-01-02/);
    expect(second.explicit).toBe(false);
    expect(statements).toHaveLength(1);
  });

  maybe('aliases, fragments, variables, @include and @skip', async () => {
    const {data, errors} = await run(
      `query Q($n: Int, $withName: Boolean!, $f: TableFiltertrackInput) {
        first: track(limit: $n, filter: $f) { data { id: track_id ...Named @include(if: $withName) ... on track { ms: milliseconds @skip(if: true) } } }
        second: track(limit: 1, offset: 2) { data { track_id } }
      }
      fragment Named on track { title: name }`,
      {variables: {n: 2, withName: true, f: {track_id: {_gt: 10}}}},
    );
    expect(errors).toEqual([]);
    expect(data?.first.data).toEqual([
      {id: 11, title: 'Track 4.2'},
      {id: 12, title: 'Track 4.3'},
    ]);
    expect(data?.second.data).toEqual([{track_id: 3}]);
  });

  maybe('nested to-one and to-many links, many-to-many, per-parent limits: one statement whatever the rows', async () => {
    const {data, errors, statements} = await run(`{
      artist(filter: {artist_id: {_eq: 1}}) { data { name album(sort: [album_id_desc]) { title artist { name } track(limit: 2) { name genre { name } playlist { name } } } } }
    }`);
    expect(errors).toEqual([]);
    const artist = data?.artist.data[0];
    expect(artist.name).toBe('AC/DC');
    expect(artist.album.map((album: {title: string}) => album.title)).toEqual(['Album 2', 'Album 1']);
    expect(artist.album[0].artist).toEqual({name: 'AC/DC'});
    expect(artist.album[0].track).toHaveLength(2);
    expect(artist.album[1].track[0]).toEqual({name: 'Track 1.1', genre: {name: 'Jazz'}, playlist: [{name: 'Music'}]});
    expect(statements).toHaveLength(1);

    const all = await run(`{ album(limit: -1) { data { track { name playlist { name } } } } }`);
    expect(all.errors).toEqual([]);
    expect(all.data?.album.data.flatMap((album: {track: unknown[]}) => album.track)).toHaveLength(TRACK_COUNT);
    expect(all.statements).toHaveLength(1);
  });

  maybe('nested windows: limit, offset and sort per parent; __typename and fragments on the page', async () => {
    const {data, errors} = await run(
      `{ album(limit: 1, offset: 7) { ...Page data { __typename track(limit: 2, offset: 1, sort: [track_id_desc]) { track_id } } } } fragment Page on album_paged { __typename total }`,
    );
    expect(errors).toEqual([]);
    expect(data?.album).toEqual({__typename: 'album_paged', total: 8, data: [{__typename: 'album', track: [{track_id: 43}, {track_id: 42}]}]});
    const empty = await run(`{ album(offset: 100) { total data { title } } }`);
    expect(empty.data?.album).toEqual({total: 8, data: []});
    expect(empty.statements).toHaveLength(2);
  });

  maybe('filters: every operator, and/or, filters through links', async () => {
    const ids = async (filter: string) => {
      const {data, errors} = await run(`{ track(limit: -1, filter: ${filter}) { data { track_id } } }`);
      expect(errors).toEqual([]);
      return (data?.track.data ?? []).map((row: {track_id: number}) => row.track_id);
    };
    expect(await ids(`{track_id: {_eq: 3}}`)).toEqual([3]);
    expect((await ids(`{track_id: {_neq: 3}}`)).length).toBe(TRACK_COUNT - 1);
    expect(await ids(`{track_id: {_gt: 42}}`)).toEqual([43, 44]);
    expect(await ids(`{track_id: {_gte: 43}}`)).toEqual([43, 44]);
    expect(await ids(`{track_id: {_lt: 3}}`)).toEqual([1, 2]);
    expect(await ids(`{track_id: {_lte: 2}}`)).toEqual([1, 2]);
    expect(await ids(`{track_id: {_in: [5, 1, 99]}}`)).toEqual([1, 5]);
    expect(await ids(`{track_id: {_in: []}}`)).toEqual([]);
    expect((await ids(`{track_id: {_nin: [1, 2]}}`)).length).toBe(TRACK_COUNT - 2);
    expect(await ids(`{track_id: {_between: [4, 6]}}`)).toEqual([4, 5, 6]);
    expect(await ids(`{name: {_starts_with: "Track 8.1"}, track_id: {_lt: 100}}`)).toEqual([36]);
    expect(await ids(`{name: {_ends_with: ".9"}}`)).toEqual([44]);
    expect(await ids(`{name: {_contains: "k 8.1"}}`)).toEqual([36]);
    expect(await ids(`{name: {_contains: "_"}}`)).toEqual([]);
    expect(await ids(`{name: {_like: "Track 1._"}}`)).toEqual([1, 2]);
    expect(await ids(`{name: {_contains: "%"}}`)).toEqual([]);
    expect(await ids(`{genre_id: {_null: true}}`)).toEqual([]);
    expect((await ids(`{genre_id: {_null: false}}`)).length).toBe(TRACK_COUNT);
    expect(await ids(`{unit_price: {_gt: "1.5"}, track_id: {_lt: 5}}`)).toEqual([2, 4]);
    expect(await ids(`{explicit: {_eq: true}, track_id: {_lt: 12}}`)).toEqual([5, 10]);
    expect(await ids(`{or: [{track_id: {_eq: 1}}, {track_id: {_eq: 44}}]}`)).toEqual([1, 44]);
    expect(await ids(`{and: [{track_id: {_gt: 1}}, {track_id: {_lt: 4}}]}`)).toEqual([2, 3]);
    expect(await ids(`{album: {artist: {name: {_eq: "AC/DC"}}}}`)).toEqual([1, 2, 3, 4, 5]);
    expect(await ids(`{playlist: {name: {_eq: "Favourites"}}, track_id: {_lt: 13}}`)).toEqual([4, 8, 12]);

    const albums = await run(`{ artist(filter: {album: {track: {name: {_eq: "Track 3.1"}}}}) { data { name } } }`);
    expect(albums.data?.artist.data).toEqual([{name: 'Accept'}]);
    expect(albums.statements).toHaveLength(1);

    const nested = await run(`{ album(filter: {album_id: {_eq: 2}}) { data { track(filter: {name: {_ends_with: ".3"}}) { name } } } }`);
    expect(nested.data?.album.data[0].track).toEqual([{name: 'Track 2.3'}]);
  });

  maybe('aggregates with group-by under the same filters', async () => {
    const {data, errors, statements} = await run(
      `{ trackAggregate(groupBy: [album_id], filter: {album_id: {_lte: 2}}) { album_id _count _sum { milliseconds } _max { track_id } _avg { rating } } }`,
    );
    expect(errors).toEqual([]);
    expect(data?.trackAggregate).toEqual([
      {album_id: 1, _count: 2, _sum: {milliseconds: 3000}, _max: {track_id: 2}, _avg: {rating: 0.375}},
      {album_id: 2, _count: 3, _sum: {milliseconds: 12000}, _max: {track_id: 5}, _avg: {rating: 1}},
    ]);
    expect(statements).toHaveLength(1);
    const total = await run(`{ trackAggregate { _count genre_id } }`);
    expect(total.data?.trackAggregate).toEqual([{_count: TRACK_COUNT, genre_id: null}]);
  });

  maybe('limits: the default window, -1, clamping at the root, per parent and per group; bad limits refused', async () => {
    const small = {...musicModel(database.kind, model.defaultSchema), maxQueryRows: 3, defaultLimit: 2};
    const page = await run(`{ track { limit data { track_id } } all: track(limit: -1) { limit data { track_id } } huge: track(limit: 1000000000) { limit } }`, {model: small});
    expect(page.errors).toEqual([]);
    expect(page.data?.track).toEqual({limit: 2, data: [{track_id: 1}, {track_id: 2}]});
    expect(page.data?.all.limit).toBe(3);
    expect(page.data?.all.data).toHaveLength(3);
    expect(page.data?.huge.limit).toBe(3);
    const nested = await run(`{ album(limit: 1, offset: 7) { data { track(limit: -1) { track_id } } } }`, {model: small});
    expect(nested.data?.album.data[0].track).toHaveLength(3);
    const groups = await run(`{ trackAggregate(groupBy: [track_id]) { _count } }`, {model: small});
    expect(groups.data?.trackAggregate).toHaveLength(3);
    const defaults = await run(`{ track { limit data { track_id } } }`);
    expect(defaults.data?.track.limit).toBe(100);
    expect(defaults.data?.track.data).toHaveLength(TRACK_COUNT);
    const negative = await run(`{ track(limit: -2) { data { track_id } } }`);
    expect(negative.errors[0]).toMatch(/limit must be ≥ 0, or -1/);
  });

  maybe('hidden tables and columns are nowhere: selecting, filtering, sorting or grouping by them is a validation error', async () => {
    for (const query of [
      `{ artist { data { secret } } }`,
      `{ artist(filter: {secret: {_eq: "s1"}}) { data { name } } }`,
      `{ artist(sort: [secret_asc]) { data { name } } }`,
      `{ artistAggregate(groupBy: [secret]) { _count } }`,
      `{ playlist_track { data { track_id } } }`,
      `{ track { data { nope } } }`,
    ]) {
      const {errors, statements} = await run(query);
      expect(errors.length, query).toBeGreaterThan(0);
      expect(statements, query).toHaveLength(0);
    }
  });

  maybe('row policy: the tenant filter and soft delete on reads, nested reads, relationship filters and aggregates; no claim is an error', async () => {
    const tenantA: UserContext = {claims: {tenant_id: 'a'}, roles: [], anonymous: false};
    const direct = await run(`{ note { data { body } } }`, {user: tenantA});
    expect(direct.data?.note.data).toEqual([{body: 'for a'}, {body: 'more for a'}]);
    const nested = await run(`{ artist(limit: 2) { data { note { body } } } }`, {user: tenantA});
    expect(nested.data?.artist.data).toEqual([{note: [{body: 'for a'}]}, {note: [{body: 'more for a'}]}]);
    const through = await run(`{ artist(filter: {note: {body: {_eq: "for b"}}}) { data { name } } }`, {user: tenantA});
    expect(through.data?.artist.data).toEqual([]);
    const counted = await run(`{ noteAggregate { _count } }`, {user: tenantA});
    expect(counted.data?.noteAggregate).toEqual([{_count: 2}]);
    const denied = await run(`{ note { data { body } } }`);
    expect(denied.errors[0]).toMatch(/tenant/);
    const deniedNested = await run(`{ artist { data { note { body } } } }`);
    expect(deniedNested.errors[0]).toMatch(/tenant/);
  });

  maybe('injection strings in every argument are values, never SQL', async () => {
    const evil = `'; drop table track; --`;
    const {data, errors} = await run(
      `query($s: String!) { track(filter: {name: {_eq: $s}, or: [{name: {_contains: $s}}, {name: {_like: $s}}, {name: {_in: [$s]}}]}) { total data { name } } }`,
      {
        variables: {s: evil},
      },
    );
    expect(errors).toEqual([]);
    expect(data?.track).toEqual({total: 0, data: []});
    const quoted = await run(`query($s: String!) { artist(filter: {name: {_eq: $s}}) { data { artist_id } } }`, {variables: {s: ARTISTS[3]}});
    expect(quoted.data?.artist.data).toEqual([{artist_id: 4}]);
    const sort = await run(`{ track(sort: ["name; drop table track"]) { data { name } } }`);
    expect(sort.errors.length).toBeGreaterThan(0);
    const admin: UserContext = {claims: {}, roles: ['gql-admin'], anonymous: false};
    const table = await run(`{ _table(name: "track; drop table track") }`, {user: admin});
    expect(table.errors[0]).toMatch(/no table/);
    const stillThere = await run(`{ track { total } }`);
    expect(stillThere.data?.track.total).toBe(TRACK_COUNT);
  });

  maybe('a query 50 relationships deep is refused before any SQL', async () => {
    let inner = 'name';
    for (let level = 0; level < 25; level++) inner = `album { artist { ${inner} } }`;
    const {errors, statements} = await run(`{ artist { data { ${inner} } } }`);
    expect(errors[0]).toMatch(/deeper than/);
    expect(statements).toHaveLength(0);
  });

  maybe('_table and _rawQuery: only for their roles, capped, filtered, allow/deny lists', async () => {
    const admin: UserContext = {claims: {}, roles: ['gql-admin', 'gql-raw-sql'], anonymous: false};
    const refused = await run(`{ _table(name: "genre") }`);
    expect(refused.errors[0]).toMatch(/needs the role gql-admin/);
    const genres = await run(`{ _table(name: "genre", filter: {name: {_neq: "Jazz"}}) }`, {user: admin});
    expect(genres.errors).toEqual([]);
    expect(genres.data?._table).toEqual([
      {genre_id: 1, name: 'Rock'},
      {genre_id: 3, name: 'Metal'},
    ]);
    const artists = await run(`{ _table(name: "artist", limit: 1) }`, {user: admin});
    expect(artists.data?._table).toEqual([{artist_id: 1, name: 'AC/DC'}]);
    expect((await run(`{ _table(name: "note") }`, {user: admin})).errors[0]).toMatch(/denied/);
    expect((await run(`{ _table(name: "artist", filter: {secret: {_eq: "x"}}) }`, {user: admin})).errors[0]).toMatch(/unknown filter field secret/);
    expect((await run(`{ _rawQuery(sql: "select 1 as one") }`)).errors[0]).toMatch(/needs the role gql-raw-sql/);
    const raw = await run(`{ _rawQuery(sql: "select track_id from track where track_id > ? order by track_id", params: [10]) }`, {user: admin});
    expect(raw.errors).toEqual([]);
    expect(raw.data?._rawQuery).toHaveLength(5);
  });

  maybe('_rawQuery is cancelled at its timeout', async () => {
    if (database.kind === 'sqlite') return; // this context runs SQLite on the test's own connection (no reader processes: sqlite-readers.test.ts cuts _rawQuery there)
    const admin: UserContext = {claims: {}, roles: ['gql-raw-sql'], anonymous: false};
    const sleep = database.kind === 'postgres' ? 'select pg_sleep(20)' : 'select sleep(20)';
    const {errors} = await run(`{ _rawQuery(sql: "${sleep}", timeout: 1) }`, {user: admin});
    expect(errors[0]).toMatch(/longer than its timeout/);
  });

  maybe('a database error is a clean GraphQL error', async () => {
    const admin: UserContext = {claims: {}, roles: ['gql-raw-sql'], anonymous: false};
    const {errors} = await run(`{ _rawQuery(sql: "select * from no_such_table") }`, {user: admin});
    expect(errors[0]).toMatch(/^database error: /);
    expect(errors[0]).not.toMatch(/\n|at /);
  });
});
