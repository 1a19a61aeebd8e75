import {GraphQLError, type ExecutionArgs} from 'graphql';
import type {ServerOptions} from 'graphql-ws';
import type {Extra} from 'graphql-ws/use/ws';
import {describeError, isWorkbenchError} from '../../core/errors.js';
import {verifyBearer} from '../auth/index.js';
import type {GqlRequestContext, UserContext} from '../types.js';
import type {HttpHandlerOptions, ServedGraphql} from './http-handler.js';

/** What a connection keeps between messages: its user, found once at connection_init. */
export interface WsExtra extends Record<PropertyKey, unknown> {
  user: UserContext;
}

type ConnectionExtra = Extra & Partial<WsExtra>;

/** `connectionParams.Authorization` (a bare token gets its `Bearer`), else the upgrade request's header. */
function authorizationOf(params: Readonly<Record<string, unknown>> | undefined, extra: ConnectionExtra): string | undefined {
  const value = params?.Authorization ?? params?.authorization ?? params?.authToken;
  if (typeof value === 'string') return /^bearer /i.test(value) ? value : `Bearer ${value}`;
  const header = extra.request?.headers.authorization;
  return typeof header === 'string' ? header : undefined;
}

/**
 * graphql-ws's server options for the service (GraphQL over WebSocket, the protocol GraphiQL and
 * Apollo speak): the token is checked once, at `connection_init` (`connectionParams.Authorization`,
 * else the upgrade request's header) — a refused one closes the socket with 4403 and the reason;
 * every operation then runs as that user, documents from the service's cache, with the
 * service's own context (subscriptions fed from the outbox). Errors are worded as over HTTP.
 */
export function graphqlWsOptions(served: ServedGraphql, options: HttpHandlerOptions = {}): ServerOptions<Record<string, unknown>, ConnectionExtra> {
  const verify = options.verify ?? verifyBearer;
  return {
    schema: served.schema,
    async onConnect(ctx) {
      try {
        ctx.extra.user = await verify(authorizationOf(ctx.connectionParams, ctx.extra), served.settings);
        return true;
      } catch (error) {
        if (!isWorkbenchError(error) || error.code === 'internal') options.onInternalError?.(error);
        // graphql-ws closes with 4403 Forbidden; the reason goes to the client in the close frame (≤123 bytes).
        ctx.extra.socket.close(4403, describeError(error).slice(0, 120));
        return false;
      }
    },
    onSubscribe(ctx, _id, payload): ExecutionArgs | readonly GraphQLError[] {
      const user = ctx.extra.user;
      if (!user) return [new GraphQLError('not connected: send connection_init first')];
      const prepared = served.documents.admit(payload.query, payload.operationName, payload.variables);
      if (prepared.errors) return prepared.errors as readonly GraphQLError[];
      const context: GqlRequestContext = served.context ? served.context(user) : {model: served.model, db: served.db, user};
      return {
        schema: served.schema,
        document: prepared.document as ExecutionArgs['document'],
        operationName: payload.operationName ?? undefined,
        variableValues: payload.variables ?? undefined,
        contextValue: context,
      };
    },
  };
}
