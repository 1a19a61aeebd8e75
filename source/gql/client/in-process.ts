import {createHandler} from 'graphql-http';
import {describeError, WorkbenchError} from '../../core/errors.js';
import {ANONYMOUS, userFromClaims, verifyBearer} from '../auth/index.js';
import {graphqlHttpOptions} from '../request/http-handler.js';
import {servedGraphqlOf} from '../request/served.js';
import type {GqlExecuteResult, GqlService, UserContext} from '../types.js';
import {resultOfAnswer} from './answer.js';
import type {GqlClient} from './gql-client.js';
import {GQL_ACCEPT, GQL_CLIENT_TIMEOUT_MS} from './wire.js';

export interface InProcessCaller {
  /** A signed token, checked as the server checks it (a refused one is refused in the server's words). */
  token?: string;
  /** The user's claims, taken as they are (`--claims`: the operator speaking as a user). */
  claims?: Record<string, unknown>;
}

/**
 * The service in this process, asked as a server is asked: each request goes through the same
 * GraphQL-over-HTTP handler `serve graphql` mounts (source/gql/request/http-handler.ts, its
 * document cache, its error formatting), so the JSON is the server's byte for byte. The caller
 * is the token's user (checked as the server checks it), the claims' user, else the anonymous
 * operator. The service is closed with the client.
 */
export function inProcessGqlClient(service: GqlService, caller: InProcessCaller = {}): GqlClient {
  const userOf = async (): Promise<UserContext> => {
    if (caller.claims !== undefined) return userFromClaims(caller.claims);
    if (caller.token !== undefined) return verifyBearer(`Bearer ${caller.token}`, service.settings);
    return {...ANONYMOUS, claims: {}, roles: []};
  };
  // A token is checked from the request's Authorization header, as the server checks it; else the user is taken as given.
  const checksToken = caller.token !== undefined && caller.claims === undefined;
  const handle = createHandler(graphqlHttpOptions(servedGraphqlOf(service), checksToken ? {} : {verify: userOf}));
  const where = `in-process · ${service.settings.source}`;
  return {
    where,
    service,
    async execute(request) {
      const headers: Record<string, string> = {'content-type': 'application/json', accept: GQL_ACCEPT};
      if (caller.token !== undefined) headers.authorization = `Bearer ${caller.token}`;
      const answer = handle({method: 'POST', url: service.settings.path, headers, body: {...request}, raw: undefined, context: undefined});
      const [body, init] = await withinTimeout(answer);
      return resultOfAnswer(init.status, body ?? '', where);
    },
    async subscribe(request, handlers) {
      if (!service.subscribe) throw new WorkbenchError('invalid_argument', 'this service runs no subscriptions');
      const stream = await service.subscribe({...request, user: await userOf()});
      if (!(Symbol.asyncIterator in stream)) {
        handlers.onResult(stream as GqlExecuteResult);
        handlers.onEnd();
        return () => {};
      }
      const iterator = stream as AsyncIterableIterator<GqlExecuteResult>;
      let stopped = false;
      void (async () => {
        try {
          for (let step = await iterator.next(); !step.done && !stopped; step = await iterator.next()) handlers.onResult(step.value);
          handlers.onEnd();
        } catch (error) {
          handlers.onEnd(describeError(error));
        }
      })();
      return () => {
        stopped = true;
        void iterator.return?.();
      };
    },
    // The chat pulls in the agent module: loaded when it is first asked for.
    chat: async () => (await import('../chat/chat-client.js')).localChat(service, await userOf()),
    close: () => service.close(),
  };
}

/** The face stops waiting after GQL_CLIENT_TIMEOUT_MS, as it does for a server. */
async function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WorkbenchError('request_timeout', `the GraphQL service gave no answer within ${GQL_CLIENT_TIMEOUT_MS / 1000} s`)), GQL_CLIENT_TIMEOUT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
