import {describeStatus} from '../../processes/describe.js';
import type {ToolContext} from '../../tools/registry-types.js';
import {asProtocolError, INVALID_PARAMS, ProtocolError} from '../protocol-error.js';
import {readResource} from '../resources/read.js';
import {resourceUri} from '../resources/uris.js';
import type {PromptAnswer, PromptDefinition} from './types.js';

async function whyStopped(args: Record<string, string>, context: ToolContext): Promise<PromptAnswer> {
  const script = args.script!;
  let processes;
  try {
    processes = await (await context.daemon()).call('proc.list', {});
  } catch (error) {
    throw asProtocolError(error);
  }
  // Run by name, a script's process has its name as id; started under another id, its scriptName says which.
  const found = processes.find((info) => info.id === script) ?? processes.find((info) => info.scriptName === script);
  if (!found)
    throw new ProtocolError(
      INVALID_PARAMS,
      `no process runs ${JSON.stringify(script)}: the processes are ${processes.map((info) => info.id).join(', ') || 'none'} (start one with the run tool)`,
    );
  const output = await readResource(resourceUri({kind: 'output', id: found.id}), context);
  return {
    description: `Why ${found.id} stopped (${describeStatus(found)})`,
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text: [
            `The process ${found.id} (\`${found.command.slice(0, 300)}\`): ${describeStatus(found)}.`,
            'From its status and the end of its output below, explain why it stopped, and what to change so it runs; then restart it with the proc tool and check its output again.',
          ].join('\n'),
        },
      },
      {role: 'user', content: {type: 'resource', resource: output}},
    ],
  };
}

export const whyStoppedPrompt: PromptDefinition = {
  name: 'why-did-script-stop',
  title: 'Why did a script stop?',
  description: 'A process’s status and the tail of its output, as context to explain why it stopped or crashed and how to fix it.',
  arguments: [{name: 'script', description: 'The script or process id (as proc list shows it)', required: true, completes: 'script'}],
  get: whyStopped,
};
