import type {GraphQLSchema} from 'graphql';

/** What an empty database's schema says, in one line: how to get data into it, or point the service elsewhere. */
export const NO_TABLES_HINT =
  'the database has no tables: `workbench gql sample` loads the Chinook sample into it, or point the service at yours (--settings, or ConnectionStrings__gqlservice)';

/** A database whose tables the metadata rules all hide. */
export const ALL_HIDDEN_HINT = 'the metadata rules hide every table of the database: nothing is served (`workbench gql check` lists them)';

/** The field an empty schema holds (a schema needs one on Query). */
export const EMPTY_FIELD = '_empty';

/**
 * The hint of a schema that serves nothing: the description of its lone `_empty` field, read
 * the same from the service's own schema and from one a client built by introspection.
 */
export function emptySchemaHint(schema: GraphQLSchema | unknown): string | undefined {
  // The service types its schema loosely (types.ts needs no graphql import): read as graphql-js's.
  const fields = (schema as Partial<GraphQLSchema> | undefined)?.getQueryType?.()?.getFields() ?? {};
  const names = Object.keys(fields);
  if (names.length !== 1 || names[0] !== EMPTY_FIELD) return undefined;
  return fields[EMPTY_FIELD].description ?? NO_TABLES_HINT;
}
