import type {Server} from '@modelcontextprotocol/sdk/server/index.js';
import {CompleteRequestSchema} from '@modelcontextprotocol/sdk/types.js';
import {getIncidents} from '../tools/get-incidents.js';
import {proxyAccess} from '../tools/proxy-access.js';
import type {ToolContext} from '../tools/registry-types.js';
import {INVALID_PARAMS, ProtocolError} from './protocol-error.js';
import {RESOURCE_TEMPLATES} from './resources/uris.js';

/** MCP's cap on the values of one completion answer. */
const MAX_VALUES = 100;

export type Completable = 'process' | 'proxy' | 'script' | 'incident';

/** The names a value may be now; none when their source cannot be asked (no daemon), never an error. */
async function candidates(kind: Completable, context: ToolContext): Promise<string[]> {
  try {
    switch (kind) {
      case 'process':
        return context.noDaemon ? [] : (await (await context.daemon()).call('proc.list', {})).map((info) => info.id);
      case 'proxy':
        return (await proxyAccess(context).list()).map((info) => info.id);
      case 'incident':
        return (await getIncidents({limit: 10_000}, context)).incidents.map((incident) => incident.id);
      case 'script': {
        const {detectProject} = await import('../project/detect.js');
        const names = (await detectProject(context.cwd)).scripts.map((script) => script.name);
        // A script's process is named after it: a script run under another id still answers to its id.
        return [...names, ...(await candidates('process', context))];
      }
    }
  } catch {
    return [];
  }
}

/** The values of `kind` that start with what was typed (case-insensitive), each once. */
export async function complete(kind: Completable, typed: string, context: ToolContext): Promise<{values: string[]; total: number; hasMore: boolean}> {
  const prefix = typed.toLowerCase();
  const matching = [...new Set(await candidates(kind, context))].filter((value) => value.toLowerCase().startsWith(prefix));
  return {values: matching.slice(0, MAX_VALUES), total: matching.length, hasMore: matching.length > MAX_VALUES};
}

/** What each template's `{id}` names. */
const TEMPLATE_VARIABLES: Record<string, Completable> = {
  'workbench://incidents/{id}': 'incident',
  'workbench://processes/{id}/output': 'process',
  'workbench://proxies/{id}/traffic': 'proxy',
  'workbench://proxies/{id}/pages': 'proxy',
};

/** completion/complete for resource template variables and prompt arguments (`prompts` names what each argument takes). */
export function registerCompletions(server: Server, context: ToolContext, prompts: Record<string, Record<string, Completable>>): void {
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const {ref, argument} = request.params;
    let kind: Completable | undefined;
    if (ref.type === 'ref/resource') {
      if (!(ref.uri in TEMPLATE_VARIABLES))
        throw new ProtocolError(
          INVALID_PARAMS,
          `unknown resource template ${JSON.stringify(ref.uri)}: the templates are ${RESOURCE_TEMPLATES.map((template) => template.uriTemplate).join(', ')}`,
        );
      if (argument.name !== 'id') throw new ProtocolError(INVALID_PARAMS, `the template ${ref.uri} has one variable, id, not ${JSON.stringify(argument.name)}`);
      kind = TEMPLATE_VARIABLES[ref.uri];
    } else {
      const args = Object.hasOwn(prompts, ref.name) ? prompts[ref.name] : undefined;
      if (!args) throw new ProtocolError(INVALID_PARAMS, `unknown prompt ${JSON.stringify(ref.name)}: the prompts are ${Object.keys(prompts).join(', ')}`);
      kind = Object.hasOwn(args, argument.name) ? args[argument.name] : undefined;
      if (!kind)
        throw new ProtocolError(INVALID_PARAMS, `the prompt ${ref.name} has no argument ${JSON.stringify(argument.name)}: it takes ${Object.keys(args).join(', ') || 'none'}`);
    }
    return {completion: await complete(kind!, argument.value, context)};
  });
}
