// The opened service on Chinook (SQLite, PostgreSQL, MariaDB): the benchmark's three query shapes
// in one statement each, the debug extension, validation errors, a database that goes away and
// comes back, and a model with problems refused.
import knex from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openGqlService} from '../../../source/gql/service.js';
import type {GqlService, GqlSettings, UserContext} from '../../../source/gql/types.js';
import {gqlDatabases, settingsFor, snakeCase, type GqlFixture} from '../../helpers/gql-databases.js';

const databases = await gqlDatabases();
const user: UserContext = {claims: {}, roles: [], anonymous: true};

describe.each(databases)('GraphQL service on Chinook in $kind', (database) => {
  let fixture: GqlFixture | undefined;
  let service: GqlService;
  // Chinook's PostgreSQL script spells names in snake_case, the others in PascalCase.
  const n = (name: string) => (database.kind === 'postgres' ? snakeCase(name) : name);
  const maybe = database.unavailable ? it.skip : it;

  beforeAll(async () => {
    if (database.unavailable) return;
    fixture = await database.createChinook();
    service = await openGqlService(settingsFor(fixture), {poolMax: 2});
  });
  afterAll(async () => {
    await service?.close();
    await fixture?.drop();
  });

  maybe('the benchmark shapes: one statement each, the SQL in extensions.sql when debugging', async () => {
    const flat = await service.execute({query: `{ ${n('Track')}(limit: 20) { data { ${n('TrackId')} ${n('Name')} ${n('UnitPrice')} } } }`, user, debug: true});
    expect(flat.errors).toBeUndefined();
    expect((flat.data?.[n('Track')] as {data: unknown[]}).data).toHaveLength(20);
    expect(flat.extensions?.sql).toMatchObject({count: 1});

    const albums = await service.execute({
      query: `{ ${n('Album')}(filter: {${n('ArtistId')}: {_eq: 1}}) { data { ${n('Title')} ${n('Track')} { ${n('Name')} ${n('Genre')} { ${n('Name')} } } } } }`,
      user,
      debug: true,
    });
    expect(albums.errors).toBeUndefined();
    const rows = (albums.data?.[n('Album')] as {data: Array<Record<string, unknown>>}).data;
    expect(rows.map((row) => row[n('Title')])).toEqual(['For Those About To Rock We Salute You', 'Let There Be Rock']);
    expect((rows[0]?.[n('Track')] as unknown[]).length).toBe(10);
    expect(albums.extensions?.sql).toMatchObject({count: 1});

    const deep = await service.execute({
      query: `{ ${n('Artist')}(limit: 5) { data { ${n('Name')} ${n('Album')} { ${n('Title')} ${n('Track')} { ${n('Name')} ${n('Genre')} { ${n('Name')} } ${n('MediaType')} { ${n('Name')} } ${n('PlaylistTrack')} { ${n('Playlist')} { ${n('Name')} } } } } } } }`,
      user,
      debug: true,
    });
    expect(deep.errors).toBeUndefined();
    const artists = (deep.data?.[n('Artist')] as {data: Array<Record<string, unknown>>}).data;
    expect(artists).toHaveLength(5);
    expect(artists[0]?.[n('Name')]).toBe('AC/DC');
    const sql = deep.extensions?.sql as {count: number; statements: Array<{sql: string; ms: number}>};
    expect(sql.count).toBe(1);
    expect(sql.statements[0]?.sql).toMatch(/select/i);
  });

  maybe('aggregates on Chinook: tracks per genre', async () => {
    const result = await service.execute({
      query: `{ ${n('Track')}Aggregate(groupBy: [${n('GenreId')}], filter: {${n('GenreId')}: {_lte: 2}}) { ${n('GenreId')} _count _sum { ${n('Milliseconds')} } } }`,
      user,
    });
    expect(result.errors).toBeUndefined();
    const groups = result.data?.[`${n('Track')}Aggregate`] as Array<Record<string, unknown>>;
    expect(groups.map((group) => [group[n('GenreId')], group._count])).toEqual([
      [1, 1297],
      [2, 130],
    ]);
  });

  maybe('bad requests: syntax, unknown fields, wrong argument types — GraphQL errors, no SQL', async () => {
    for (const query of [`{ ${n('Track')} { data { `, `{ ${n('Track')} { data { nope } } }`, `{ ${n('Track')}(limit: "ten") { total } }`, `{ nothing }`]) {
      const result = await service.execute({query, user, debug: true});
      expect(result.errors?.length, query).toBeGreaterThan(0);
      expect(result.data, query).toBeUndefined();
      expect(JSON.stringify(result.errors)).not.toMatch(/\n\s+at /);
    }
  });

  maybe('the same text twice is prepared once and answers alike', async () => {
    const query = `query($id: Int!) { ${n('Track')}(filter: {${n('TrackId')}: {_eq: $id}}) { data { ${n('Name')} } } }`;
    const first = await service.execute({query, variables: {id: 1}, user});
    const second = await service.execute({query, variables: {id: 2}, user});
    const again = await service.execute({query, variables: {id: 1}, user});
    expect(first.data).toEqual(again.data);
    expect(first.data).not.toEqual(second.data);
  });

  maybe('a database that goes away gives a clean GraphQL error, and the next request after it returns succeeds', async () => {
    if (database.kind === 'sqlite' || !fixture) return;
    const admin = knex({...fixture.knexConfig, pool: {min: 0, max: 1}});
    try {
      // End every session of the service (the database "goes away" for its connections).
      if (database.kind === 'postgres') await admin.raw('select pg_terminate_backend(pid) from pg_stat_activity where datname = ? and pid <> pg_backend_pid()', [fixture.database]);
      else {
        const [list] = (await admin.raw('select id from information_schema.processlist where db = ? and id <> connection_id()', [fixture.database])) as [Array<{id: number}>];
        for (const {id} of list) await admin.raw(`kill ${Number(id)}`);
      }
    } finally {
      await admin.destroy();
    }
    const results = [];
    for (let attempt = 0; attempt < 3; attempt++) results.push(await service.execute({query: `{ ${n('Genre')}(limit: 1) { data { ${n('Name')} } } }`, user}));
    for (const result of results) if (result.errors) expect(result.errors[0]?.message).toMatch(/the database cannot be reached|the database is unavailable|database error/);
    expect(results.at(-1)?.errors).toBeUndefined();
    expect(results.at(-1)?.data).toEqual({[n('Genre')]: {data: [{[n('Name')]: 'Rock'}]}});
  });
});

describe('opening the service', () => {
  it('an unreachable database is a clean error', async () => {
    const settings: GqlSettings = {...settingsFor({provider: 'postgres', connectionString: 'Host=127.0.0.1;Port=1;Database=none;Username=x'} as GqlFixture)};
    await expect(openGqlService(settings)).rejects.toMatchObject({code: 'database_unavailable'});
  });
  it('a model with problems is refused with every problem listed', async () => {
    const settings = settingsFor({provider: 'sqlite', connectionString: 'Data Source=:memory:'} as GqlFixture);
    await expect(
      openGqlService(settings, {
        loadModel: async () => ({model: undefined as never, problems: [{message: 'first'}, {message: 'second', target: 'main.t', rule: 'main.t { x: y }', ruleIndex: 0}]}),
      }),
    ).rejects.toThrow(/2 problem\(s\):\n- first\n- main\.t: second \(rule 0: main\.t \{ x: y \}\)/);
  });
  it('an empty database still serves a valid schema', async () => {
    const service = await openGqlService(settingsFor({provider: 'sqlite', connectionString: 'Data Source=:memory:'} as GqlFixture));
    try {
      expect(await service.execute({query: '{ _empty }', user})).toEqual({data: {_empty: null}});
    } finally {
      await service.close();
    }
  });
});

describe.each(databases.filter((database) => database.kind !== 'sqlite'))('stored procedures on $kind', (database) => {
  const maybe = database.unavailable ? it.skip : it;
  maybe('functions and procedures are Query fields returning their rows as JSON', async () => {
    const fixture = await database.createTenantFixture();
    const service = await openGqlService(settingsFor(fixture), {poolMax: 2});
    try {
      const fields = Object.keys((service.schema as import('graphql').GraphQLSchema).getQueryType()!.getFields());
      expect(fields).toEqual(expect.arrayContaining(['tenant_tasks', 'task_count', 'archive_task']));
      const tasks = await service.execute({query: `{ tenant_tasks(p_tenant: 2) }`, user});
      expect(tasks.errors).toBeUndefined();
      expect((tasks.data?.tenant_tasks as Array<{tenant_id: number}>).every((row) => row.tenant_id === 2)).toBe(true);
      expect(tasks.data?.tenant_tasks).toHaveLength(2);
      const count = await service.execute({query: `{ task_count(p_tenant: 1) }`, user});
      expect(count.errors).toBeUndefined();
      expect(Object.values((count.data?.task_count as Array<Record<string, unknown>>)[0] ?? {}).map(Number)).toEqual([3]);
      const archived = await service.execute({query: `{ archive_task(p_task: 1, p_by: "me") }`, user});
      expect(archived.errors).toBeUndefined();
    } finally {
      await service.close();
      await fixture.drop();
    }
  });
});

describe('metadata rules through the service', () => {
  it('hidden by a rule is absent from the schema; a malformed rule refuses to open with the rule named', async () => {
    const sqlite = databases.find((database) => database.kind === 'sqlite')!;
    const fixture = await sqlite.createChinook();
    try {
      const service = await openGqlService(
        settingsFor(fixture, ['main.Employee { visibility: hidden; }', 'main.Track.Composer { visibility: hidden; }', ':root { max-query-rows: 5; }']),
      );
      try {
        const result = await service.execute({query: '{ Track(limit: -1) { limit data { Name } } }', user});
        expect(result.data).toMatchObject({Track: {limit: 5}});
        expect((await service.execute({query: '{ Employee { total } }', user})).errors?.[0]?.message).toMatch(/Employee/);
        expect((await service.execute({query: '{ Track(filter: {Composer: {_eq: "x"}}) { total } }', user})).errors?.[0]?.message).toMatch(/Composer/);
      } finally {
        await service.close();
      }
      await expect(openGqlService(settingsFor(fixture, ['main.Track { visibility: hidden;']))).rejects.toMatchObject({code: 'config_invalid'});
    } finally {
      await fixture.drop();
    }
  });
});
