// Settings and a small SQLite database for the GraphQL server's and command's tests. The tests open
// them with the real openGqlService (source/gql/service.ts): introspected model, generated schema,
// the read and write paths — nothing hand-written stands in for the layer below the face.
import knex from 'knex';
import type {GqlSettings} from '../../source/gql/types.js';

export function gqlTestSettings(overrides: Partial<GqlSettings> = {}): GqlSettings {
  return {
    provider: 'sqlite',
    connectionString: 'Data Source=:memory:',
    path: '/graphql',
    playground: '/',
    disableAuth: false,
    metadata: [],
    http3: {enabled: false, httpsPort: 5001},
    jwt: {},
    cdc: {},
    source: 'test settings',
    ...overrides,
  };
}

/** The three artists of `artist`, in id order. */
export const ARTISTS = ['AC/DC', 'Accept', 'Aerosmith'] as const;

/** The rows of `note`: each visible only to the user whose `sub` claim is its owner. */
export const NOTES = [
  {id: 1, body: 'ada: first', owner: 'ada'},
  {id: 2, body: 'bob: only', owner: 'bob'},
  {id: 3, body: 'ada: second', owner: 'ada'},
] as const;

/**
 * The metadata rules that make claims visible through real behaviour: `note` rows only to their
 * owner's `sub`, its `created_by` written with the audit key, `_table` for the `reader` role and
 * `_rawQuery` for `gql-admin` (so both the `role` and the `roles` claim are seen to count).
 */
export const CLAIM_RULES = [
  'main.note { auto-filter: owner:sub }',
  'main.note.created_by { populate: created-by }',
  ':root { generic-table: enabled; generic-table-role: reader; raw-sql: enabled; raw-sql-role: gql-admin }',
];

/**
 * Creates a SQLite file with `artist` (ARTISTS) and `note` (NOTES, `created_by` empty) and returns
 * its connection string in the spec's shape, for gqlTestSettings({connectionString}).
 */
export async function createArtistDatabase(file: string): Promise<string> {
  const db = knex({client: 'better-sqlite3', connection: {filename: file}, useNullAsDefault: true});
  try {
    await db.schema.createTable('artist', (table) => {
      table.increments('id');
      table.string('name', 200);
    });
    await db('artist').insert(ARTISTS.map((name) => ({name})));
    await db.schema.createTable('note', (table) => {
      table.increments('id');
      table.string('body', 200);
      table.string('owner', 50).notNullable();
      table.string('created_by', 50);
    });
    await db('note').insert(NOTES.map((note) => ({...note})));
  } finally {
    await db.destroy();
  }
  return `Data Source=${file}`;
}
