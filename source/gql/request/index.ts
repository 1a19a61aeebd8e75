// request/: one GraphQL request, whichever face sends it — the document cache, the debug SQL
// extension, client-facing error wording, and graphql-http's options for the HTTP server.
export type {DocumentPreparer, PreparedDocument} from './document-preparer.js';
export {DEBUG_HEADER, sqlExtension, wantsSql} from './debug.js';
export {formatGqlError} from './format-error.js';
export {graphqlHttpOptions, refusal, type HttpHandlerOptions, type ServedGraphql} from './http-handler.js';
export {graphqlWsOptions, type WsExtra} from './ws-handler.js';
export {servedGraphqlOf} from './served.js';
