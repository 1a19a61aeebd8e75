// A small GqlService over a real database for the server's tests, until openGqlService (source/gql/
// service.ts) builds the schema from the live model: one table `artist`, a hand-written schema
// whose resolvers send real SQL through knex and record it as the query layer does (context.statements).
import {execute, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString} from 'graphql';
import knex, {type Knex} from 'knex';
import {DocumentCache} from '../../source/gql/query/document-cache.js';
import type {GqlExecuteResult, GqlModel, GqlRequestContext, GqlService, GqlSettings, Row} from '../../source/gql/types.js';

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

async function timed(context: GqlRequestContext, query: Knex.QueryBuilder): Promise<Row[]> {
  const {sql, bindings} = query.toSQL();
  const started = performance.now();
  const rows = (await query) as Row[];
  context.statements?.push({sql, bindings, ms: performance.now() - started});
  return rows;
}

export function artistSchema(): GraphQLSchema {
  const artist = new GraphQLObjectType({
    name: 'Artist',
    fields: {id: {type: new GraphQLNonNull(GraphQLInt)}, name: {type: GraphQLString}},
  });
  const user = new GraphQLObjectType({
    name: 'Me',
    fields: {sub: {type: GraphQLString}, roles: {type: new GraphQLList(new GraphQLNonNull(GraphQLString))}, anonymous: {type: GraphQLString}},
  });
  return new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        artist: {
          type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(artist))),
          args: {limit: {type: GraphQLInt}},
          resolve: (_root, args: {limit?: number}, context: GqlRequestContext) =>
            timed(
              context,
              context
                .db('artist')
                .select('id', 'name')
                .orderBy('id')
                .limit(args.limit ?? 100),
            ),
        },
        me: {
          type: user,
          resolve: (_root, _args, context: GqlRequestContext) => ({sub: context.user.auditKey, roles: context.user.roles, anonymous: String(context.user.anonymous)}),
        },
      },
    }),
    mutation: new GraphQLObjectType({
      name: 'Mutation',
      fields: {
        addArtist: {
          type: artist,
          args: {name: {type: new GraphQLNonNull(GraphQLString)}},
          resolve: async (_root, args: {name: string}, context: GqlRequestContext) => {
            const [row] = await context.db('artist').insert({name: args.name}).returning(['id', 'name']);
            return row as Row;
          },
        },
      },
    }),
  });
}

/** Creates `artist` with three rows in the database behind `config` and serves it with the hand-written schema. */
export async function artistService(config: Knex.Config, settings: GqlSettings): Promise<GqlService & {documents: DocumentCache}> {
  const db = knex(config);
  await db.schema.dropTableIfExists('artist');
  await db.schema.createTable('artist', (table) => {
    table.increments('id');
    table.string('name', 200);
  });
  await db('artist').insert([{name: 'AC/DC'}, {name: 'Accept'}, {name: 'Aerosmith'}]);
  const schema = artistSchema();
  const documents = new DocumentCache(schema);
  const model = {provider: settings.provider, tables: []} as unknown as GqlModel;
  return {
    settings,
    model,
    schema,
    db,
    documents,
    async execute(args) {
      const prepared = documents.prepare(args.query);
      if (prepared.errors) return {errors: prepared.errors.map((error) => error.toJSON())} as GqlExecuteResult;
      const contextValue: GqlRequestContext = {model, db, user: args.user};
      const result = await execute({schema, document: prepared.document, variableValues: args.variables ?? undefined, contextValue});
      return {...(result.errors ? {errors: result.errors.map((error) => error.toJSON())} : {}), data: result.data ?? null} as GqlExecuteResult;
    },
    close: () => db.destroy(),
  };
}
