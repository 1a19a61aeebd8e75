import type {GraphQLSchema} from 'graphql';
import type {HandlerOptions, Request, Response} from 'graphql-http';
import {describeError, HTTP_STATUS, isWorkbenchError} from '../../core/errors.js';
import {verifyBearer} from '../auth/index.js';
import type {GqlModel, GqlRequestContext, GqlSettings, UserContext} from '../types.js';
import {abandonedSignal} from './abandoned.js';
import {DEBUG_HEADER, sqlExtension, wantsSql} from './debug.js';
import type {DocumentPreparer} from './document-preparer.js';
import {formatGqlError} from './format-error.js';

// graphql-http's context type: an object (GqlRequestContext, which as an interface has no index signature).
type GqlContextValue = Record<PropertyKey, unknown>;

/** What a GraphQL request over HTTP runs against: an opened GqlService has all of it. */
export interface ServedGraphql {
  settings: GqlSettings;
  model: GqlModel;
  schema: GraphQLSchema;
  db: GqlRequestContext['db'];
  /** The service's cache of parsed and validated documents (its compiled SQL is keyed by them). */
  documents: DocumentPreparer;
  /** The service's resolver context for a user (its change hooks and subscription feed); default: model, db and user only. */
  context?: (user: UserContext) => GqlRequestContext;
}

export interface HttpHandlerOptions {
  /** How a request's user is found (default verifyBearer: the token, or anonymous with DisableAuth). */
  verify?: (authorization: string | undefined, settings: GqlSettings) => Promise<UserContext>;
  /** Told of failures that are the server's, not the client's (a 500 in the making). */
  onInternalError?: (error: unknown) => void;
}

/**
 * graphql-http's handler options for the service (GraphQL over HTTP, its status codes, GET
 * queries and no GET mutations are graphql-http's). Once graphql-http has read the request, the
 * token is checked first — a bad one answers 401 before anything is said of the query or the
 * schema — then the document comes from the service's cache (parsed and validated once per
 * text), the resolvers' context carries the user and a signal that aborts when the client goes
 * away (its statement is cancelled, abandoned.ts), and the SQL sent goes to `extensions.sql`
 * when the `X-Gql-Debug` header asks. Errors are worded for the client (format-error.ts).
 * Any framework mounts it (servers/graphql on fastify).
 */
export function graphqlHttpOptions<Raw, Ctx>(served: ServedGraphql, options: HttpHandlerOptions = {}): HandlerOptions<Raw, Ctx, GqlContextValue> {
  const verify = options.verify ?? verifyBearer;
  return {
    schema: served.schema,
    async onSubscribe(req, params) {
      let user: UserContext;
      try {
        user = await verify(header(req, 'authorization'), served.settings);
      } catch (error) {
        return refusal(error, options.onInternalError);
      }
      const prepared = served.documents.admit(params.query, params.operationName, params.variables);
      if (prepared.errors) return prepared.errors;
      const base: GqlRequestContext = served.context ? served.context(user) : {model: served.model, db: served.db, user};
      const signal = abandonedSignal(req.context);
      const context: GqlRequestContext = {...base, ...(wantsSql(header(req, DEBUG_HEADER)) ? {statements: []} : {}), ...(signal ? {signal} : {})};
      return {
        schema: served.schema,
        document: prepared.document,
        operationName: params.operationName ?? undefined,
        variableValues: params.variables ?? undefined,
        contextValue: context as unknown as GqlContextValue,
      };
    },
    onOperation(req, args, result) {
      if (Symbol.asyncIterator in result) return undefined;
      const statements = (args.contextValue as unknown as GqlRequestContext | undefined)?.statements;
      const answer = statements === undefined ? result : {...result, extensions: {...result.extensions, sql: sqlExtension(statements)}};
      if (answer.errors !== undefined) return answer === result ? undefined : answer;
      // graphql-http writes every answer with a JSON.stringify replacer (for Error values among the
      // errors), which takes V8 off its fast path: 20 µs against 11 µs for 20 rows, 3 % of a small
      // query's CPU. An answer without errors holds no Error: it is written here, plainly, with
      // the status and media type graphql-http gives a successful answer.
      return [JSON.stringify(answer), {status: 200, statusText: 'OK', headers: {'content-type': successType(header(req, 'accept'))}}];
    },
    formatError: (error) => formatGqlError(error) as ReturnType<NonNullable<HandlerOptions['formatError']>>,
  };
}

/**
 * The content type graphql-http answers a success with, from the same reading of `Accept` (the
 * first acceptable entry, utf-8): `application/graphql-response+json` when asked first, else
 * `application/json`. The request got this far, so one of them was acceptable.
 */
export function successType(accept: string | undefined): string {
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType, ...params] = entry.split(';');
    const charset = params.find((param) => param.includes('charset=')) ?? 'charset=utf-8';
    if (mediaType === 'application/graphql-response+json' && charset === 'charset=utf-8') return 'application/graphql-response+json; charset=utf-8';
    if ((mediaType === 'application/json' || mediaType === 'application/*' || mediaType === '*/*') && (charset === 'charset=utf-8' || charset === 'charset=utf8')) break;
  }
  return 'application/json; charset=utf-8';
}

function header(req: Request<unknown, unknown>, name: string): string | undefined {
  const headers = req.headers as unknown as {get?: (name: string) => string | null} & Record<string, string | string[] | undefined>;
  const value = typeof headers.get === 'function' ? (headers.get(name) ?? undefined) : headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A token refused (401 with the reason and a WWW-Authenticate challenge) or an identity provider away (503), in GraphQL's error shape. */
export function refusal(error: unknown, onInternalError: HttpHandlerOptions['onInternalError']): Response {
  if (!isWorkbenchError(error) || error.code === 'internal') onInternalError?.(error);
  const code = isWorkbenchError(error) ? error.code : 'internal';
  const message = isWorkbenchError(error) && code !== 'internal' ? error.message : `authentication failed: ${describeError(error)}`;
  const status = HTTP_STATUS[code] ?? 500;
  const headers: Record<string, string> = {'content-type': 'application/json; charset=utf-8'};
  if (status === 401) headers['www-authenticate'] = `Bearer error="invalid_token", error_description="${headerText(message)}"`;
  return [JSON.stringify({errors: [{message, extensions: {code}}]}), {status, statusText: code, headers}];
}

// A header value is ASCII without quotes inside a quoted-string (RFC 6750 §3): typographic quotes become plain ones, the rest `?`.
function headerText(text: string): string {
  return text
    .replace(/[‘’]/g, "'")
    .replace(/[“”"\\]/g, "'")
    .replace(/[^\x20-\x7e]/g, '?');
}
