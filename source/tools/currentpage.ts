import {z} from 'zod';
import {formatPageSessions} from '../devproxy/describe.js';
import type {ProxyPages} from '../devproxy/manager.js';
import {proxyIdSchema} from '../devproxy/params.js';
import {pageSessionSchema} from './output-schemas.js';
import {proxyAccess} from './proxy-access.js';
import {defineTool, type ToolContext} from './registry-types.js';

export const currentpageInput = z.strictObject({
  proxy_id: proxyIdSchema.optional().describe("One proxy's pages; every proxy's when absent"),
});

export type CurrentpageArgs = z.input<typeof currentpageInput>;

export async function currentpageTask(args: CurrentpageArgs, context: ToolContext): Promise<{proxies: ProxyPages[]}> {
  return {proxies: await proxyAccess(context).pages(args.proxy_id)};
}

export const currentpageTool = defineTool({
  name: 'currentpage',
  title: 'Browser pages open through the dev proxies',
  description: [
    'The browser tabs connected through each dev proxy: URL, title, when loaded, errors and failed requests since that load, last interaction. A session id here picks one page for proxy exec.',
    'Example: {"proxy_id": "app"}',
  ].join('\n'),
  annotations: {readOnlyHint: true, idempotentHint: true, openWorldHint: false},
  input: currentpageInput,
  output: z.object({proxies: z.array(z.looseObject({proxy: z.string(), url: z.string(), pages: z.array(pageSessionSchema)}))}),
  handler: currentpageTask,
  compact: (result) => formatPageSessions(result.proxies),
  raw: (result) => result.proxies,
  structured: (result) => ({...result}),
});
