import type {Server} from '@modelcontextprotocol/sdk/server/index.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type {ToolContext} from '../../tools/registry-types.js';
import {listResources} from './list.js';
import {readResource} from './read.js';
import type {ResourceSubscriptions} from './subscriptions.js';
import {RESOURCE_TEMPLATES} from './uris.js';

/** resources/list (paged), resources/templates/list, resources/read, resources/subscribe and unsubscribe. */
export function registerResources(server: Server, context: ToolContext, subscriptions: ResourceSubscriptions): void {
  server.setRequestHandler(ListResourcesRequestSchema, (request) => listResources(context, request.params?.cursor));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({resourceTemplates: [...RESOURCE_TEMPLATES]}));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({contents: [await readResource(request.params.uri, context)]}));
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    await subscriptions.subscribe(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    await subscriptions.unsubscribe(request.params.uri);
    return {};
  });
}
