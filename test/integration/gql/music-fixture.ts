// A small music database made the same way on SQLite, PostgreSQL and MariaDB (names, types, rows),
// with the GqlModel the model stage would make of it written out by hand, so the query side is
// tested on every provider with identical expectations: every column kind, to-one, to-many and
// many-to-many links, a hidden column, a tenant-isolated soft-deleted table.
import knex from 'knex';
import type {Knex} from 'knex';
import type {ColumnKind, GqlColumn, GqlLink, GqlModel, GqlTable, Provider} from '../../../source/gql/types.js';

export const ARTISTS = ['AC/DC', 'Accept', 'Aerosmith', 'O\'Reilly "Quote" %_', 'Zeta'];
/** Tracks per album: album n (1-based) has n+1 tracks. Artist a (1-based) has albums 2a-1 and 2a (Zeta has none). */
export const ALBUM_COUNT = 8;

export async function createMusic(db: Knex): Promise<void> {
  await db.schema.createTable('artist', (t) => {
    t.integer('artist_id').primary();
    t.string('name', 120);
    t.string('secret', 40);
  });
  await db.schema.createTable('album', (t) => {
    t.integer('album_id').primary();
    t.string('title', 160).notNullable();
    t.integer('artist_id').notNullable().references('artist_id').inTable('artist');
  });
  await db.schema.createTable('genre', (t) => {
    t.integer('genre_id').primary();
    t.string('name', 120);
  });
  await db.schema.createTable('track', (t) => {
    t.integer('track_id').primary();
    t.string('name', 200).notNullable();
    t.integer('album_id').references('album_id').inTable('album');
    t.integer('genre_id').references('genre_id').inTable('genre');
    t.integer('milliseconds').notNullable();
    t.bigInteger('bytes');
    t.decimal('unit_price', 10, 2).notNullable();
    t.double('rating');
    t.boolean('explicit').notNullable();
    t.date('released');
  });
  await db.schema.createTable('playlist', (t) => {
    t.integer('playlist_id').primary();
    t.string('name', 120);
  });
  await db.schema.createTable('playlist_track', (t) => {
    t.integer('playlist_id').notNullable().references('playlist_id').inTable('playlist');
    t.integer('track_id').notNullable().references('track_id').inTable('track');
    t.primary(['playlist_id', 'track_id']);
  });
  await db.schema.createTable('note', (t) => {
    t.integer('note_id').primary();
    t.string('tenant_id', 20).notNullable();
    t.string('body', 200).notNullable();
    t.integer('artist_id').references('artist_id').inTable('artist');
    t.string('deleted_at', 30);
  });

  await db('artist').insert(ARTISTS.map((name, index) => ({artist_id: index + 1, name, secret: `s${index + 1}`})));
  const albums = [];
  for (let id = 1; id <= ALBUM_COUNT; id++) albums.push({album_id: id, title: `Album ${id}`, artist_id: Math.ceil(id / 2)});
  await db('album').insert(albums);
  await db('genre').insert([
    {genre_id: 1, name: 'Rock'},
    {genre_id: 2, name: 'Jazz'},
    {genre_id: 3, name: 'Metal'},
  ]);
  const tracks = [];
  let trackId = 0;
  for (let album = 1; album <= ALBUM_COUNT; album++) {
    for (let n = 1; n <= album + 1; n++) {
      trackId++;
      tracks.push({
        track_id: trackId,
        name: `Track ${album}.${n}`,
        album_id: album,
        genre_id: (trackId % 3) + 1,
        milliseconds: 1000 * trackId,
        bytes: trackId === 1 ? '9007199254740993' : 100 * trackId,
        unit_price: trackId % 2 === 0 ? '1.99' : '0.99',
        rating: trackId / 4,
        explicit: trackId % 5 === 0,
        released: `2020-01-${String((trackId % 28) + 1).padStart(2, '0')}`,
      });
    }
  }
  await db('track').insert(tracks);
  await db('playlist').insert([
    {playlist_id: 1, name: 'Music'},
    {playlist_id: 2, name: 'Favourites'},
  ]);
  const links = [];
  for (let id = 1; id <= trackId; id++) {
    links.push({playlist_id: 1, track_id: id});
    if (id % 4 === 0) links.push({playlist_id: 2, track_id: id});
  }
  await db('playlist_track').insert(links);
  await db('note').insert([
    {note_id: 1, tenant_id: 'a', body: 'for a', artist_id: 1},
    {note_id: 2, tenant_id: 'b', body: 'for b', artist_id: 1},
    {note_id: 3, tenant_id: 'a', body: 'deleted for a', artist_id: 2, deleted_at: '2024-01-01'},
    {note_id: 4, tenant_id: 'a', body: 'more for a', artist_id: 2},
  ]);
}

/** 44 tracks: album n has n+1. */
export const TRACK_COUNT = Array.from({length: ALBUM_COUNT}, (_, index) => index + 2).reduce((a, b) => a + b, 0);

function column(name: string, kind: ColumnKind, options: Partial<GqlColumn> = {}): GqlColumn {
  return {
    dbName: name,
    name,
    kind,
    dataType: kind,
    nullable: true,
    isPrimaryKey: false,
    isIdentity: false,
    hasDefault: false,
    hidden: false,
    readOnly: false,
    meta: {},
    ...options,
  };
}

const pk = (name: string) => column(name, 'int', {isPrimaryKey: true, nullable: false});

function link(name: string, kind: 'single' | 'many', target: string, sourceColumns: string[], targetColumns: string[], via?: GqlLink['via']): GqlLink {
  return {name, kind, target, sourceColumns, targetColumns, origin: via ? 'many-to-many' : 'foreign-key', ...(via ? {via} : {})};
}

export function musicModel(provider: Provider, schema: string, overrides: Partial<GqlModel> = {}): GqlModel {
  const key = (table: string) => `${schema}.${table}`;
  const table = (name: string, columns: GqlColumn[], links: GqlLink[], extra: Partial<GqlTable> = {}): GqlTable => ({
    key: key(name),
    schema,
    dbName: name,
    name,
    columns,
    primaryKey: columns.filter((c) => c.isPrimaryKey).map((c) => c.dbName),
    links,
    hidden: false,
    isView: false,
    autoFilters: [],
    deleteType: 'hard',
    bulkBatchThreshold: 50,
    batchDuplicatePolicy: 'last-wins',
    filteredUpdate: false,
    filteredUpdateMaxAffected: 100,
    meta: {},
    ...extra,
  });
  const tables = [
    table(
      'artist',
      [pk('artist_id'), column('name', 'string'), column('secret', 'string', {hidden: true})],
      [link('album', 'many', key('album'), ['artist_id'], ['artist_id']), link('note', 'many', key('note'), ['artist_id'], ['artist_id'])],
    ),
    table(
      'album',
      [pk('album_id'), column('title', 'string', {nullable: false}), column('artist_id', 'int', {nullable: false})],
      [link('artist', 'single', key('artist'), ['artist_id'], ['artist_id']), link('track', 'many', key('track'), ['album_id'], ['album_id'])],
    ),
    table('genre', [pk('genre_id'), column('name', 'string')], [link('track', 'many', key('track'), ['genre_id'], ['genre_id'])]),
    table(
      'track',
      [
        pk('track_id'),
        column('name', 'string', {nullable: false}),
        column('album_id', 'int'),
        column('genre_id', 'int'),
        column('milliseconds', 'int', {nullable: false}),
        column('bytes', 'bigint'),
        column('unit_price', 'decimal', {nullable: false}),
        column('rating', 'float'),
        column('explicit', 'boolean', {nullable: false}),
        column('released', 'date'),
      ],
      [
        link('album', 'single', key('album'), ['album_id'], ['album_id']),
        link('genre', 'single', key('genre'), ['genre_id'], ['genre_id']),
        link('playlist', 'many', key('playlist'), ['track_id'], ['playlist_id'], {
          junction: key('playlist_track'),
          junctionSourceColumns: ['track_id'],
          junctionTargetColumns: ['playlist_id'],
        }),
      ],
    ),
    table(
      'playlist',
      [pk('playlist_id'), column('name', 'string')],
      [
        link('track', 'many', key('track'), ['playlist_id'], ['track_id'], {
          junction: key('playlist_track'),
          junctionSourceColumns: ['playlist_id'],
          junctionTargetColumns: ['track_id'],
        }),
      ],
    ),
    table('playlist_track', [column('playlist_id', 'int', {isPrimaryKey: true}), column('track_id', 'int', {isPrimaryKey: true})], [], {hidden: true}),
    table(
      'note',
      [pk('note_id'), column('tenant_id', 'string', {nullable: false}), column('body', 'string', {nullable: false}), column('artist_id', 'int'), column('deleted_at', 'string')],
      [link('artist', 'single', key('artist'), ['artist_id'], ['artist_id'])],
      {tenantColumn: 'tenant_id', softDelete: {column: 'deleted_at'}},
    ),
  ];
  return {
    provider,
    defaultSchema: schema,
    tables,
    byKey: new Map(tables.map((t) => [t.key, t])),
    byName: new Map(tables.filter((t) => !t.hidden).map((t) => [t.name, t])),
    procedures: [],
    maxQueryRows: 10000,
    defaultLimit: 100,
    tenantContextKey: 'tenant_id',
    rawSql: {enabled: true, role: 'gql-raw-sql', maxRows: 5},
    genericTable: {enabled: true, role: 'gql-admin', denied: ['note']},
    schemaDisplay: 'flat',
    schemaExcluded: [],
    meta: {},
    ...overrides,
  };
}

/** A knex for a test database's connection string (`?schema=` on PostgreSQL becomes the search path). */
export function connect(kind: Provider, connection: string): {db: Knex; schema: string} {
  if (kind === 'sqlite') return {db: knex({client: 'better-sqlite3', connection: {filename: connection}, useNullAsDefault: true}), schema: 'main'};
  if (kind === 'postgres') {
    const url = new URL(connection);
    const schema = url.searchParams.get('schema') ?? 'public';
    url.searchParams.delete('schema');
    return {db: knex({client: 'pg', connection: url.toString(), searchPath: [schema]}), schema};
  }
  const url = new URL(connection);
  return {
    db: knex({
      client: 'mysql2',
      connection: url.toString(),
      pool: {
        min: 0,
        max: 4,
        afterCreate: (conn: {query: (sql: string, done: (error: unknown) => void) => void}, done: (error: unknown, conn: unknown) => void) =>
          conn.query('set session group_concat_max_len = 4294967295', (error) => done(error, conn)),
      },
    }),
    schema: url.pathname.slice(1),
  };
}
