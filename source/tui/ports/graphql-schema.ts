import {buildClientSchema, getIntrospectionQuery, isSchema, type GraphQLSchema, type IntrospectionQuery} from 'graphql';
import {WorkbenchError} from '../../core/errors.js';
import type {GqlExecuteResult} from '../../gql/types.js';

// graphql-js is loaded through this module, imported by the port only when the pane asks for a
// schema. The port must not `await import('graphql')` itself: graphql 16 is CommonJS, and the
// bundled program's dynamic import of a CommonJS package has a `default` and no named exports.

/** The in-process service's schema, checked to be graphql-js's own object. */
export function checkedSchema(schema: unknown): GraphQLSchema {
  if (!isSchema(schema)) throw new WorkbenchError('internal', 'the GraphQL service has no schema');
  return schema;
}

/** A server's schema by introspection: `post` sends one GraphQL request. */
export async function introspectedSchema(post: (body: {query: string}) => Promise<GqlExecuteResult>): Promise<GraphQLSchema> {
  const result = await post({query: getIntrospectionQuery()});
  if (!result.data) throw new WorkbenchError('internal', `the schema could not be read: ${result.errors?.map((error) => error.message).join('; ') ?? 'no data'}`);
  return buildClientSchema(result.data as unknown as IntrospectionQuery);
}
