import type {Server} from '@modelcontextprotocol/sdk/server/index.js';
import {GetPromptRequestSchema, ListPromptsRequestSchema} from '@modelcontextprotocol/sdk/types.js';
import type {ToolContext} from '../../tools/registry-types.js';
import type {Completable} from '../completions.js';
import {INVALID_PARAMS, ProtocolError} from '../protocol-error.js';
import {fixIncidentPrompt} from './fix-incident.js';
import type {PromptDefinition} from './types.js';
import {whyStoppedPrompt} from './why-stopped.js';

/** Every prompt `workbench mcp` serves. */
export const prompts: PromptDefinition[] = [fixIncidentPrompt, whyStoppedPrompt];

/** What completes each prompt's arguments, for completion/complete. */
export const promptArguments: Record<string, Record<string, Completable>> = Object.fromEntries(
  prompts.map((prompt) => [prompt.name, Object.fromEntries(prompt.arguments.map((argument) => [argument.name, argument.completes]))]),
);

/** The arguments as the prompt takes them, or -32602 naming what is missing or unknown. */
function checkArguments(prompt: PromptDefinition, given: Record<string, string>): Record<string, string> {
  for (const name of Object.keys(given))
    if (!prompt.arguments.some((argument) => argument.name === name))
      throw new ProtocolError(
        INVALID_PARAMS,
        `the prompt ${prompt.name} has no argument ${JSON.stringify(name)}: it takes ${prompt.arguments.map((argument) => argument.name).join(', ')}`,
      );
  for (const argument of prompt.arguments)
    if (argument.required && !given[argument.name])
      throw new ProtocolError(INVALID_PARAMS, `the prompt ${prompt.name} needs the argument ${argument.name}: ${argument.description}`);
  return given;
}

/** prompts/list and prompts/get. */
export function registerPrompts(server: Server, context: ToolContext): void {
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: prompts.map(({name, title, description, arguments: args}) => ({
      name,
      title,
      description,
      arguments: args.map(({name: argument, description: about, required}) => ({name: argument, description: about, required})),
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = prompts.find((known) => known.name === request.params.name);
    if (!prompt) throw new ProtocolError(INVALID_PARAMS, `unknown prompt ${JSON.stringify(request.params.name)}: the prompts are ${prompts.map((known) => known.name).join(', ')}`);
    return prompt.get(checkArguments(prompt, request.params.arguments ?? {}), context);
  });
}
