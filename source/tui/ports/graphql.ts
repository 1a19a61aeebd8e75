import type {GraphQLSchema} from 'graphql';
import {describeError, WorkbenchError} from '../../core/errors.js';
import type {DatabaseChat} from '../../gql/chat/chat-client.js';
import type {GqlExecuteResult, GqlService, GqlSettings} from '../../gql/types.js';
import {graphqlEndpoint, httpGqlClient, inProcessGqlClient, openGqlClient, type GqlClient, type SubscriptionHandlers} from '../../gql/client/index.js';
import type {ServiceEntry} from '../../services/registry.js';

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

export type {SubscriptionHandlers};

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

/** The pane's connection over one GraphQL client (source/gql/client): the schema for completion besides what the client does. */
export function connectionOf(client: GqlClient): GqlConnection {
  const service = client.service;
  return {
    where: client.where,
    async schema() {
      // graphql-js costs a few hundred ms to load: only once the pane asks, not with the TUI.
      const {checkedSchema, introspectedSchema} = await import('./graphql-schema.js');
      return service ? checkedSchema(service.schema) : introspectedSchema((body) => client.execute(body));
    },
    execute: (query, variables) => client.execute({query, ...(variables ? {variables} : {})}),
    subscribe: (query, variables, handlers) => client.subscribe({query, ...(variables ? {variables} : {})}, handlers),
    chat: () => client.chat(),
    close: () => client.close(),
  };
}

/** The in-process service, for the anonymous operator: its schema is graphql-js's own object. */
export function inProcessConnection(service: GqlService): GqlConnection {
  return connectionOf(inProcessGqlClient(service));
}

/** A running server over GraphQL-over-HTTP: the schema by introspection, queries by POST. */
export function remoteConnection(entry: ServiceEntry, options: {token?: string} = {}): GqlConnection {
  return connectionOf(httpGqlClient(graphqlEndpoint(entry), options));
}

export interface GraphqlPortOptions {
  /** How the service is reached (default: openGqlClient on `loadSettings()` — a running `serve graphql` of those settings, else in-process). */
  open?: () => Promise<GqlConnection>;
  /** The project's GraphQL settings (appsettings.json in the project); without them the pane says why. */
  loadSettings?: () => Promise<GqlSettings>;
  /** A service to use in-process, no server looked for (tests, the demo); it is closed with the port. */
  openInProcess?: () => Promise<GqlService>;
}

/**
 * The GraphQL pane's port. It reaches the service as the CLI does (openGqlClient: the running
 * server of the project's settings, else the service in this process). What it connected to is kept; a server that stops answering is looked up again next time.
 */
export function createGraphqlPort(options: GraphqlPortOptions = {}): GraphqlPort {
  const open =
    options.open ??
    (async (): Promise<GqlConnection> => {
      if (options.openInProcess) return inProcessConnection(await options.openInProcess());
      if (!options.loadSettings) throw new WorkbenchError('daemon_not_connected', 'no GraphQL server running — workbench serve graphql');
      return connectionOf(await openGqlClient(await options.loadSettings()));
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

export {graphqlEndpoint};
