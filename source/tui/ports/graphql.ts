import type {GraphQLSchema} from 'graphql';
import {describeError, WorkbenchError} from '../../core/errors.js';
import type {DatabaseChat} from '../../gql/chat/chat-client.js';
import type {GqlExecuteResult, GqlService} from '../../gql/types.js';
import {httpCall, NoAnswerError} from '../../services/http-call.js';
import {findService, type ServiceEntry} from '../../services/registry.js';

/** Where the pane's queries go and how: a running `workbench serve graphql`, or the service opened in this process. */
export interface GqlConnection {
  /** Said in the pane's title line: the server's URL, or `in-process · <settings source>`. */
  where: string;
  schema(): Promise<GraphQLSchema>;
  execute(query: string, variables: Record<string, unknown> | undefined): Promise<GqlExecuteResult>;
  /** Runs a subscription: each result as it comes, then `onEnd` (with why, when it failed); returns the stop. */
  subscribe(query: string, variables: Record<string, unknown> | undefined, handlers: SubscriptionHandlers): Promise<() => void>;
  /** The database's chat (its conversations, a message, a plan's approval); not_found when it has no chat tables. */
  chat(): Promise<DatabaseChat>;
  close(): Promise<void>;
}

export interface SubscriptionHandlers {
  onResult(result: GqlExecuteResult): void;
  onEnd(error?: string): void;
}

/** The GraphQL service as the TUI sees it: the schema (for completion) and a way to run a query. */
export interface GraphqlPort {
  /** Where queries go (connects first when nothing is connected yet). */
  where(): Promise<string>;
  schema(): Promise<GraphQLSchema>;
  run(query: string, variables?: Record<string, unknown>): Promise<GqlExecuteResult>;
  /** A subscription (`<t>Changed`): results as they commit until the returned stop is called. */
  subscribe(query: string, variables: Record<string, unknown> | undefined, handlers: SubscriptionHandlers): Promise<() => void>;
  /** The chat of the same service (source/gql/chat/): what the GraphQL pane lists and the Chat pane talks to. */
  chat(): Promise<DatabaseChat>;
  close(): Promise<void>;
}

// A local server answers a query in milliseconds; a big result over a slow database may take a while.
const QUERY_TIMEOUT_MS = 60_000;

/** The anonymous caller of an in-process service: what `gql query` without a token is. */
const ANONYMOUS = {claims: {}, roles: [], anonymous: true} as const;

/** The in-process service: its schema is graphql-js's own object. */
export function inProcessConnection(service: GqlService): GqlConnection {
  return {
    where: `in-process · ${service.settings.source}`,
    async schema() {
      const {checkedSchema} = await import('./graphql-schema.js');
      return checkedSchema(service.schema);
    },
    execute: (query, variables) => service.execute({query, variables, user: {...ANONYMOUS, claims: {}, roles: []}}),
    async subscribe(query, variables, handlers) {
      if (!service.subscribe) throw new WorkbenchError('invalid_argument', 'this service runs no subscriptions');
      const stream = await service.subscribe({query, variables, user: {...ANONYMOUS, claims: {}, roles: []}});
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
    // The chat pulls in the agent module: loaded when a pane first asks, not with the TUI.
    chat: async () => (await import('../../gql/chat/chat-client.js')).localChat(service, {...ANONYMOUS, claims: {}, roles: []}),
    close: () => service.close(),
  };
}

/** The endpoint a `serve graphql` entry names: its own `endpoint` field when it wrote one, else `<url>/graphql`. */
export function graphqlEndpoint(entry: ServiceEntry): URL {
  const endpoint = typeof entry.endpoint === 'string' ? entry.endpoint : `${entry.url.replace(/\/$/, '')}${typeof entry.path === 'string' ? entry.path : '/graphql'}`;
  return new URL(endpoint);
}

/** A running server over GraphQL-over-HTTP: the schema by introspection, queries by POST. */
export function remoteConnection(entry: ServiceEntry, options: {token?: string} = {}): GqlConnection {
  const endpoint = graphqlEndpoint(entry);
  const post = async (body: unknown): Promise<GqlExecuteResult> => {
    const headers: Record<string, string> = {'content-type': 'application/json', accept: 'application/graphql-response+json, application/json'};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let answer;
    try {
      answer = await httpCall(endpoint, {method: 'POST', headers, body: JSON.stringify(body), timeoutMs: QUERY_TIMEOUT_MS});
    } catch (error) {
      if (error instanceof NoAnswerError) throw new WorkbenchError('daemon_not_connected', `the GraphQL server at ${endpoint.href} did not answer (${error.reason})`);
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      throw new WorkbenchError('internal', `the GraphQL server answered ${answer.status} with no GraphQL result`);
    }
    // GraphQL over HTTP answers request errors with 4xx and a result holding them: show those.
    if (typeof parsed === 'object' && parsed !== null && ('data' in parsed || 'errors' in parsed)) return parsed as GqlExecuteResult;
    const message = (parsed as {error?: {message?: string}}).error?.message;
    throw new WorkbenchError('internal', `the GraphQL server answered ${answer.status}${message ? `: ${message}` : ''}`);
  };
  return {
    where: endpoint.href,
    async schema() {
      // graphql-js costs a few hundred ms to load: only once the pane asks, not with the TUI.
      const {introspectedSchema} = await import('./graphql-schema.js');
      return introspectedSchema(post);
    },
    execute: (query, variables) => post({query, variables}),
    async subscribe(query, variables, handlers) {
      // graphql-ws over the same path (the server takes WebSocket upgrades there); loaded on first use.
      const [{createClient}, {default: WebSocket}] = await Promise.all([import('graphql-ws'), import('ws')]);
      const url = new URL(endpoint.href);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      const client = createClient({
        url: url.href,
        webSocketImpl: WebSocket,
        connectionParams: options.token ? {Authorization: `Bearer ${options.token}`} : {},
        retryAttempts: 0,
        lazy: true,
      });
      let ended = false;
      const end = (error?: string) => {
        if (ended) return;
        ended = true;
        handlers.onEnd(error);
        void client.dispose();
      };
      client.on('closed', (event) => {
        const close = event as {code?: number; reason?: string};
        if (close.code !== undefined && close.code !== 1000) end(`the server closed the subscription (${close.code}${close.reason ? `: ${close.reason}` : ''})`);
      });
      const unsubscribe = client.subscribe(
        {query, ...(variables ? {variables} : {})},
        {
          next: (result) => handlers.onResult(result as GqlExecuteResult),
          error: (error) =>
            end(error instanceof Error ? error.message : Array.isArray(error) ? error.map((item: {message?: string}) => item.message).join('; ') : 'the subscription failed'),
          complete: () => end(),
        },
      );
      return () => {
        unsubscribe();
        end();
      };
    },
    chat: async () => (await import('../../gql/chat/chat-client.js')).remoteChat(endpoint, options.token),
    close: async () => {},
  };
}

export interface GraphqlPortOptions {
  /** How the service is reached (default: a running `serve graphql` from the registry, else the service in-process). */
  open?: () => Promise<GqlConnection>;
  /** The in-process service when no server runs (default: openGqlService(loadGqlSettings()) in the project). */
  openInProcess?: () => Promise<GqlService>;
}

/**
 * The GraphQL pane's port. It prefers the running server (found through the service registry,
 * as the CLI finds it) and otherwise opens the service in this process with the project's
 * settings. What it connected to is kept; a server that stops answering is looked up again next time.
 */
export function createGraphqlPort(options: GraphqlPortOptions = {}): GraphqlPort {
  const open =
    options.open ??
    (async (): Promise<GqlConnection> => {
      const entry = await findService('graphql');
      if (entry) return remoteConnection(entry, {token: process.env.WORKBENCH_GQL_TOKEN || undefined});
      if (!options.openInProcess) throw new WorkbenchError('daemon_not_connected', 'no GraphQL server running — workbench serve graphql');
      return inProcessConnection(await options.openInProcess());
    });
  let current: Promise<GqlConnection> | undefined;
  const connection = () => {
    const pending = (current ??= open());
    pending.catch(() => {
      if (current === pending) current = undefined;
    });
    return pending;
  };
  const forgetOnNoAnswer = (pending: Promise<GqlConnection>, error: unknown) => {
    if (error instanceof WorkbenchError && error.code === 'daemon_not_connected' && current === pending) current = undefined;
  };
  const withConnection = async <T>(work: (connection: GqlConnection) => Promise<T>): Promise<T> => {
    const pending = connection();
    try {
      return await work(await pending);
    } catch (error) {
      forgetOnNoAnswer(pending, error);
      throw error instanceof WorkbenchError ? error : new WorkbenchError('internal', describeError(error));
    }
  };
  return {
    where: () => withConnection(async (connection) => connection.where),
    schema: () => withConnection((connection) => connection.schema()),
    run: (query, variables) => withConnection((connection) => connection.execute(query, variables)),
    subscribe: (query, variables, handlers) => withConnection((connection) => connection.subscribe(query, variables, handlers)),
    chat: () => withConnection((connection) => connection.chat()),
    async close() {
      const pending = current;
      current = undefined;
      await pending?.then((connection) => connection.close()).catch(() => undefined);
    },
  };
}
