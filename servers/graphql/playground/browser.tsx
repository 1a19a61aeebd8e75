/**
 * The playground page's script (bundled with GraphiQL and React into one file by
 * scripts/playground.mjs, served by the GraphQL server itself: no CDN). The page says where the
 * endpoint is in `<div id="graphiql" data-endpoint="…">`; headers typed in GraphiQL's headers
 * tab (an `Authorization: Bearer …`) go with every request.
 */
import {GraphiQL} from 'graphiql';
import 'graphiql/style.css';
import type {ComponentProps} from 'react';
import {createRoot} from 'react-dom/client';

const root = document.getElementById('graphiql')!;
const endpoint = root.dataset.endpoint ?? '/graphql';

type Fetcher = ComponentProps<typeof GraphiQL>['fetcher'];

const fetcher: Fetcher = async (params, options) => {
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
