import multipart from '@fastify/multipart';
import type {FastifyInstance, FastifyRequest} from 'fastify';
import type {GraphQLSchema} from 'graphql';
import type {HandlerOptions, Response} from 'graphql-http';
import {verifyBearer} from '../../../source/gql/auth/index.js';
import {noQuery} from '../../kit/index.js';
import {answerFileRequest} from '../../../source/gql/files/download.js';
import {MAX_FILES, readMultipartRequest, type MultipartPart} from '../../../source/gql/files/multipart-request.js';
import type {StagedFile} from '../../../source/gql/files/staged-file.js';
import {StorageUnavailable, UploadRefused} from '../../../source/gql/files/upload-refused.js';
import {refusal, type HttpHandlerOptions, type ServedGraphql} from '../../../source/gql/request/index.js';
import type {GqlRequestContext, UserContext} from '../../../source/gql/types.js';

export interface FileRouteOptions extends HttpHandlerOptions {
  served: ServedGraphql;
}

const contextOf =
  (served: ServedGraphql) =>
  (user: UserContext): GqlRequestContext =>
    served.context ? served.context(user) : {model: served.model, db: served.db, user};

/**
 * Multipart uploads at GqlService:Path (GraphQL multipart request spec): registers
 * @fastify/multipart in the GraphQL route's context and answers graphql-http's
 * `parseRequestParams` for multipart bodies — the token first (a refused one reads no file), then
 * operations, map and the files streamed into their storages. Files a request staged and no
 * mutation committed are discarded when its answer has gone (or the client went away).
 */
export async function registerUploads(app: FastifyInstance, options: FileRouteOptions): Promise<HandlerOptions['parseRequestParams']> {
  const {served} = options;
  const verify = options.verify ?? verifyBearer;
  const operationsLimit = app.initialConfig.bodyLimit ?? 1024 * 1024;
  // preservePath: the client's whole name reaches displayName (file-name.ts), which keeps it as text only.
  // fileHwm: a file part buffers up to 1 MB before it pushes back on the socket (busboy's default
  // 16 kB paused the socket once a chunk or so): the disk write in flight no longer stalls the transfer.
  await app.register(multipart, {
    preservePath: true,
    fileHwm: 1024 * 1024,
    limits: {fieldSize: operationsLimit, fields: 2, files: MAX_FILES, parts: MAX_FILES + 2, fileSize: Infinity},
  });
  const stagedBy = new WeakMap<FastifyRequest, StagedFile[]>();
  // A file a mutation has claimed is that mutation's to commit or discard, even when its client has gone.
  const discard = async (request: FastifyRequest) => {
    const staged = stagedBy.get(request) ?? [];
    stagedBy.delete(request);
    await Promise.all(staged.map((file) => file.abandon().catch((error: unknown) => request.log.error({err: error}, 'discarding an upload failed'))));
  };
  app.addHook('onResponse', discard);
  app.addHook('onRequestAbort', discard);
  return async (req) => {
    const request = req.raw as FastifyRequest;
    if (!request.isMultipart()) return undefined;
    try {
      await verify(request.headers.authorization, served.settings);
    } catch (error) {
      return refusal(error, options.onInternalError);
    }
    const staged: StagedFile[] = [];
    stagedBy.set(request, staged);
    try {
      const parts = request.parts() as unknown as AsyncIterable<MultipartPart>;
      return await readMultipartRequest(parts, {model: served.model, schema: served.schema as GraphQLSchema}, staged);
    } catch (error) {
      await discard(request);
      if (error instanceof StorageUnavailable) {
        options.onInternalError?.(error);
        return [
          JSON.stringify({errors: [{message: error.message, extensions: {code: 'storage_unavailable'}}]}),
          {status: 503, statusText: 'Service Unavailable', headers: {'content-type': 'application/json; charset=utf-8', connection: 'close'}},
        ] satisfies Response;
      }
      const refused = asRefusal(error);
      if (!refused) throw error;
      return [
        JSON.stringify({
          errors: [
            {message: refused.message, extensions: {code: refused.status === 413 ? 'payload_too_large' : refused.status === 415 ? 'unsupported_media_type' : 'bad_request'}},
          ],
        }),
        {
          status: refused.status,
          statusText: refused.status === 413 ? 'Payload Too Large' : refused.status === 415 ? 'Unsupported Media Type' : 'Bad Request',
          // The rest of a refused body is not worth reading.
          headers: {'content-type': 'application/json; charset=utf-8', connection: 'close'},
        },
      ] satisfies Response;
    }
  };
}

/** Our refusals, and @fastify/multipart's and busboy's words for a body out of shape. */
function asRefusal(error: unknown): UploadRefused | undefined {
  if (error instanceof UploadRefused) return error;
  const {code, statusCode, message} = error as {code?: string; statusCode?: number; message?: string};
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') return new UploadRefused(413, `too many parts: at most ${MAX_FILES} files in one request`);
  if (code === 'FST_FIELDS_LIMIT') return new UploadRefused(400, 'a multipart request has two fields, operations and map');
  if (code === 'FST_INVALID_JSON_FIELD_ERROR') return new UploadRefused(400, 'a part sent as application/json is not valid JSON');
  if (code === 'FST_PROTO_VIOLATION') return new UploadRefused(400, 'a part is named like an Object.prototype property');
  if (statusCode === 413) return new UploadRefused(413, message ?? 'too large');
  if (typeof message === 'string' && /multipart|part|boundary|form/i.test(message)) return new UploadRefused(400, `malformed multipart body: ${message}`);
  return undefined;
}

/**
 * GET <Path>/files/<table>/<column>/<key…>: a file column's file, read through the user's row
 * rules (source/gql/files/download.ts). The primary key's values follow in declared order, one
 * path segment each.
 */
export async function fileRoutes(app: FastifyInstance, options: FileRouteOptions): Promise<void> {
  const {served} = options;
  const verify = options.verify ?? verifyBearer;
  const serving = {model: served.model, schema: served.schema as GraphQLSchema, documents: served.documents, context: contextOf(served)};
  app.get(`${served.settings.path}/files/:table/:column/*`, {schema: {querystring: noQuery}}, async (request, reply) => {
    const user = await verify(request.headers.authorization, served.settings);
    const params = request.params as {table: string; column: string; '*': string};
    const header = (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const answer = await answerFileRequest(serving, user, {
      table: params.table,
      column: params.column,
      key: params['*'].split('/').filter((segment) => segment !== ''),
      ...(header('range') ? {range: header('range')} : {}),
      ...(header('if-none-match') ? {ifNoneMatch: header('if-none-match')} : {}),
      ...(header('if-range') ? {ifRange: header('if-range')} : {}),
    });
    reply.code(answer.status).headers(answer.headers);
    return reply.send(answer.body ?? '');
  });
}
