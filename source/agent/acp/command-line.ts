import {parse} from 'shell-quote';
import {WorkbenchError} from '../../core/errors.js';

export interface AgentCommand {
  file: string;
  args: string[];
}

/**
 * `--agent` as a program and its arguments, split the way a shell splits words (quotes and
 * backslashes work, so a path with spaces can be given) but run without a shell: `;`, `|`, `&&`
 * or `>` would make a second program run or a file be written where the user expected one
 * command, so they are refused; `$VAR` and globs stay as written.
 */
export function parseAgentCommand(commandLine: string): AgentCommand {
  const words: string[] = [];
  for (const entry of parse(commandLine, (name) => `$${name}`)) {
    if (typeof entry === 'string') words.push(entry);
    else if ('comment' in entry) throw new WorkbenchError('invalid_argument', `--agent is one command run without a shell: quote '#' to pass it as an argument`);
    else if (entry.op === 'glob') words.push(entry.pattern);
    else throw new WorkbenchError('invalid_argument', `--agent is one command run without a shell: quote '${entry.op}' to pass it as an argument`);
  }
  const [file, ...args] = words;
  if (!file) throw new WorkbenchError('invalid_argument', '--agent needs the command that starts the agent (for example "gemini --experimental-acp")');
  return {file, args};
}
