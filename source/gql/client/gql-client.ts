import type {DatabaseChat} from '../chat/chat-client.js';
import type {GqlExecuteResult, GqlService} from '../types.js';

/** One request as a face sends it: the document, its variables and operation. */
export interface GqlClientRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

export interface SubscriptionHandlers {
  onResult(result: GqlExecuteResult): void;
  onEnd(error?: string): void;
}

/**
 * The GraphQL service as every face reaches it (`gql query`, `gql chat`, the GraphQL and Chat
 * panes): a running `workbench serve graphql`, or the service opened in this process. Both
 * answer a request with the same JSON — the in-process one goes through the server's own
 * GraphQL-over-HTTP handler (source/gql/request), errors worded by format-error.ts.
 */
export interface GqlClient {
  /** Said to the user: the server's endpoint, or `in-process · <settings source>`. */
  where: string;
  /** The in-process service (its graphql-js schema, for the pane's completion); absent for a server. */
  service?: GqlService;
  execute(request: GqlClientRequest): Promise<GqlExecuteResult>;
  /** Runs a subscription: each result as it comes, then `onEnd` (with why, when it failed); returns the stop. */
  subscribe(request: GqlClientRequest, handlers: SubscriptionHandlers): Promise<() => void>;
  /** The database's chat (its conversations, a message, a plan's approval); not_found when it has no chat tables. */
  chat(): Promise<DatabaseChat>;
  close(): Promise<void>;
}
