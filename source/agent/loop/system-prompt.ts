import type {AgentTool} from '../types.js';

/**
 * What the model is told about where it works. Short on purpose: the tools describe themselves,
 * and every token here is paid on every request of the conversation.
 */
export function systemPrompt(cwd: string, tools: readonly AgentTool[]): string {
  const workbench = tools.filter((tool) => tool.permission === 'workbench').map((tool) => tool.name);
  return [
    "You are a coding agent working in a developer's project through the workbench terminal tool.",
    `The project folder is ${cwd}; relative paths are resolved there.`,
    'Read files before you edit them. Edits replace one exact, unique string; include enough context to make it unique.',
    'Run shell commands to build, test and inspect; keep them non-interactive.',
    workbench.length
      ? `The workbench also supervises the project's dev servers and collects their errors: ${workbench.join(', ')}. Use get_errors or get_incidents to see what is failing in the running app.`
      : '',
    "Some tool calls need the user's permission; a refused call says which rule refused it: do not retry it unchanged.",
    'When you are done, answer briefly with what you found or changed.',
  ]
    .filter(Boolean)
    .join('\n');
}
