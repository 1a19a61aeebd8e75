import {WorkbenchError} from '../../core/errors.js';
import {httpCall, NoAnswerError} from '../../services/http-call.js';
import {resultOfAnswer} from './answer.js';
import type {GqlClient} from './gql-client.js';
import {GQL_ACCEPT, GQL_CLIENT_TIMEOUT_MS} from './wire.js';

/** A running `serve graphql` over GraphQL over HTTP (POST), graphql-ws for subscriptions and its `/chat` routes; with a token as `Authorization: Bearer`. */
export function httpGqlClient(endpoint: URL, options: {token?: string} = {}): GqlClient {
  return {
    where: endpoint.href,
    async execute(request) {
      const headers: Record<string, string> = {'content-type': 'application/json', accept: GQL_ACCEPT};
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let answer;
      try {
        answer = await httpCall(endpoint, {method: 'POST', headers, body: JSON.stringify(request), timeoutMs: GQL_CLIENT_TIMEOUT_MS});
      } catch (error) {
        throw new WorkbenchError('daemon_not_connected', `the GraphQL server at ${endpoint.href} did not answer: ${error instanceof NoAnswerError ? error.reason : String(error)}`);
      }
      return resultOfAnswer(answer.status, answer.text, endpoint.href);
    },
    async subscribe(request, handlers) {
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
      const unsubscribe = client.subscribe(request, {
        next: (result) => handlers.onResult(result as Parameters<typeof handlers.onResult>[0]),
        error: (error) =>
          end(error instanceof Error ? error.message : Array.isArray(error) ? error.map((item: {message?: string}) => item.message).join('; ') : 'the subscription failed'),
        complete: () => end(),
      });
      return () => {
        unsubscribe();
        end();
      };
    },
    chat: async () => (await import('../chat/chat-client.js')).remoteChat(endpoint, options.token),
    close: async () => {},
  };
}
