/**
 * The workbench's own tools (source/tools/registry.ts: get_errors, proc, detect, ...) offered to
 * the model, so an agent can debug the running app the way an editor's assistant does over MCP:
 * the same zod input (as JSON Schema), the same handler, the same compact text within the answer
 * budget. Read-only tools (and get_incidents, which changes only read marks) need no asking; the rest (proc stop, run, proxy) ask unless a rule says.
 */
import {z} from 'zod';
import {toTerminalLine, toTerminalText} from '../../text/terminal-safe.js';
import {fitText, ANSWER_BUDGET} from '../../tools/budget.js';
import type {ToolContext} from '../../tools/registry-types.js';
import {tools as registeredTools, type RegisteredTool} from '../../tools/registry.js';
import type {AgentTool} from '../types.js';
import {parseToolInput} from './tool-input.js';

export function workbenchAgentTools(context: ToolContext, registry: readonly RegisteredTool[] = registeredTools): AgentTool[] {
  return registry.map((tool) => workbenchAgentTool(tool, context));
}

export function workbenchAgentTool(tool: RegisteredTool, context: ToolContext): AgentTool {
  const {$schema: _ignored, ...inputSchema} = z.toJSONSchema(tool.input, {io: 'input'}) as Record<string, unknown>;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema,
    permission: 'workbench',
    // Read-only tools, and those that change only the workbench's own bookkeeping without loss
    // (get_incidents' read marks: not destructive, closed world), need no asking.
    safeByDefault: tool.annotations.readOnlyHint === true || (tool.annotations.destructiveHint === false && tool.annotations.openWorldHint === false),
    argument(raw) {
      // The rules see the tool's name and its arguments: `proc {"action":"stop","process_id":"web"}`, matched by `proc*`.
      parseToolInput(tool.name, tool.input, raw);
      return raw && typeof raw === 'object' && Object.keys(raw).length > 0 ? `${tool.name} ${JSON.stringify(raw)}` : tool.name;
    },
    async run(raw, agentContext) {
      if (typeof raw === 'string') parseToolInput(tool.name, tool.input, raw);
      const outcome = await tool.call(raw ?? {}, {...context, cwd: agentContext.cwd ?? context.cwd}, 'tool');
      const budget = context.budget ?? ANSWER_BUDGET;
      const {text} = fitText(outcome.text, {keep: 'head', hint: `ask ${tool.name} for less (a filter or a limit)`, budget});
      const firstLine = text.split('\n', 1)[0] ?? '';
      const summary = toTerminalLine(`${tool.name}${summaryArgs(raw)} → ${firstLine.slice(0, 80)}`);
      return {content: text, isError: false, row: {tool: tool.name, summary, detail: toTerminalText(text)}};
    },
  };
}

/** The arguments the model gave, briefly, for the row: ` {"name":"web"}`. */
function summaryArgs(raw: unknown): string {
  if (!raw || typeof raw !== 'object' || Object.keys(raw).length === 0) return '';
  const text = JSON.stringify(raw);
  return ` ${text.length > 60 ? `${text.slice(0, 59)}…` : text}`;
}
