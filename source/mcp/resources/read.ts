import {ANSWER_BUDGET, fitText} from '../../tools/budget.js';
import {findTool} from '../../tools/registry.js';
import type {ToolContext} from '../../tools/registry-types.js';
import {asProtocolError} from '../protocol-error.js';
import {parseResourceUri, type ResourceRef} from './uris.js';

/** One resource's text as resources/read (and a prompt's embedded resource) carries it. */
export type ResourceText = {
  uri: string;
  mimeType: 'text/plain';
  text: string;
};

/** Room kept beside a process's output for its status line. */
const STATUS_ROOM = 1000;

/** What the tool answer for this resource would say, through the same tool: one logic, three faces (CLI, tool, resource). */
async function toolText(name: string, args: Record<string, unknown>, context: ToolContext): Promise<string> {
  const tool = findTool(name);
  if (!tool) throw new Error(`the ${name} tool is missing from the registry`);
  return (await tool.call(args, context)).text;
}

async function render(ref: ResourceRef, context: ToolContext): Promise<{text: string; hint: string}> {
  switch (ref.kind) {
    case 'incidents':
      return {text: await toolText('get_incidents', {}, context), hint: 'read workbench://incidents/<id> for one whole, or page with the get_incidents tool'};
    case 'incident':
      return {text: await toolText('get_incidents', {id: ref.id}, context), hint: 'the get_incidents tool with {"id"} answers the same'};
    case 'output': {
      const status = await toolText('proc', {action: 'status', process_id: ref.id}, context);
      // The output keeps its newest lines and says what it left out (proc's own cut), leaving room for the status.
      const output = await toolText('proc', {action: 'output', process_id: ref.id}, {...context, budget: (context.budget ?? ANSWER_BUDGET) - STATUS_ROOM});
      return {
        text: `${status.slice(0, STATUS_ROOM - 100).trimEnd()}\n\n--- output (newest last) ---\n${output}`,
        hint: 'the proc tool with {"action": "output", "tail"} or {"grep"} narrows it',
      };
    }
    case 'traffic':
      return {text: await toolText('proxylog', {proxy_id: ref.id}, context), hint: 'the proxylog tool narrows it (types, status_codes, since, path)'};
    case 'pages':
      return {text: await toolText('currentpage', {proxy_id: ref.id}, context), hint: 'the currentpage tool answers the same'};
    case 'project':
      return {text: await toolText('detect', {}, context), hint: 'the detect tool answers the same'};
  }
}

/** resources/read of one URI: its text within the answer budget, a cut one saying so; failures as JSON-RPC errors. */
export async function readResource(uri: string, context: ToolContext): Promise<ResourceText> {
  const ref = parseResourceUri(uri);
  try {
    const {text, hint} = await render(ref, context);
    return {uri, mimeType: 'text/plain', text: fitText(text, {keep: 'head', budget: context.budget ?? ANSWER_BUDGET, hint}).text};
  } catch (error) {
    throw asProtocolError(error);
  }
}
