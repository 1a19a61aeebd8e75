import type {FastifyInstance} from 'fastify';
import {createHandler} from 'graphql-http/lib/use/fastify';
import {noQuery} from '../../kit/index.js';
import {graphqlHttpOptions, type HttpHandlerOptions, type ServedGraphql} from '../../../source/gql/request/index.js';
import {registerUploads} from './files.js';

export interface GraphqlRouteOptions extends HttpHandlerOptions {
  served: ServedGraphql;
}

// GET carries the request in the query string (GraphQL over HTTP §GET); nothing else is taken there.
const graphqlQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {query: {type: 'string'}, variables: {type: 'string'}, operationName: {type: 'string'}, extensions: {type: 'string'}},
} as const;

/**
 * GET and POST at GqlService:Path, answered by graphql-http (source/gql/request has its options):
 * the kit's JSON parser reads the body first, so a body that is not JSON is refused in the kit's
 * words; everything GraphQL over HTTP says of the rest — methods, media types, status codes,
 * no mutation over GET — is graphql-http's.
 */
export async function graphqlRoutes(app: FastifyInstance, options: GraphqlRouteOptions): Promise<void> {
  // multipart/form-data POSTs are file uploads (routes/files.ts); JSON goes to graphql-http's own parser.
  const parseRequestParams = await registerUploads(app, options);
  const handler = createHandler({...graphqlHttpOptions(options.served, options), parseRequestParams});
  const url = options.served.settings.path;
  app.get(url, {schema: {querystring: graphqlQuery}}, handler);
  // `body: {}`: any JSON shape (graphql-http says which it accepts); a POST carries nothing in its query string.
  app.post(url, {schema: {querystring: noQuery, body: {}}}, handler);
}
