/**
 * The playground page's script (bundled with GraphiQL and React into one file by
 * scripts/playground.mjs, served by the GraphQL server itself: no CDN). The page says where the
 * endpoint is in `<div id="graphiql" data-endpoint="…">`; headers typed in GraphiQL's headers
 * tab (an `Authorization: Bearer …`) go with every request. Subscriptions (`<t>Changed`) go over
 * a WebSocket to the same path (graphql-ws), the Authorization header as its connection params.
 */
import {GraphiQL} from 'graphiql';
import {getOperationAST, parse} from 'graphql';
import {createClient, type Client} from 'graphql-ws';
import 'graphiql/style.css';
import type {ComponentProps} from 'react';
import {createRoot} from 'react-dom/client';

const root = document.getElementById('graphiql')!;
const endpoint = root.dataset.endpoint ?? '/graphql';

type Fetcher = ComponentProps<typeof GraphiQL>['fetcher'];

let socket: {client: Client; authorization: string} | undefined;

/** One graphql-ws client per Authorization typed in the headers tab (a new token opens a new connection). */
function wsClient(headers: Record<string, string> | undefined): Client {
  const authorization = headers?.Authorization ?? headers?.authorization ?? '';
  if (!socket || socket.authorization !== authorization) {
    void socket?.client.dispose();
    const url = new URL(endpoint, window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = {client: createClient({url: url.href, connectionParams: authorization ? {Authorization: authorization} : {}}), authorization};
  }
  return socket.client;
}

function isSubscription(query: string, operationName: string | null | undefined): boolean {
  try {
    return getOperationAST(parse(query), operationName ?? undefined)?.operation === 'subscription';
  } catch {
    return false;
  }
}

const fetcher: Fetcher = async (params, options) => {
  if (isSubscription(params.query, params.operationName)) {
    return wsClient(options?.headers as Record<string, string> | undefined).iterate({
      query: params.query,
      variables: params.variables ?? undefined,
      operationName: params.operationName ?? undefined,
    });
  }
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...(options?.headers as Record<string, string> | undefined)},
    body: JSON.stringify(params),
  });
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return {errors: [{message: `the server answered ${response.status} ${response.statusText}: ${text.slice(0, 500)}`}]};
  }
};

createRoot(root).render(<GraphiQL fetcher={fetcher} defaultEditorToolsVisibility="variables" />);
