/**
 * The tools the loop offers the model, and the one way a tool call is carried out
 * (`runToolCall`): look the tool up, check its arguments, ask the permit, run it, make its row.
 * Whatever goes wrong (a tool the model made up, arguments that are not JSON, a refusal, a failing
 * command) becomes an error answer the model can act on and a row that says so; nothing throws
 * out of the loop.
 */
import {describeError} from '../../core/errors.js';
import {toTerminalLine} from '../../text/terminal-safe.js';
import type {ToolContext} from '../../tools/registry-types.js';
import type {AgentTool, AgentToolContext, Permit, PermissionDecision, PermissionTool, ToolCallRequest, ToolResult, ToolRow} from '../types.js';
import {editFileTool} from './edit-file.js';
import {readFileTool} from './read-file.js';
import {runShellTool} from './run-shell.js';
import {workbenchAgentTools} from './workbench-tools.js';

export {editFileTool, readFileTool, runShellTool};
export {workbenchAgentTool, workbenchAgentTools} from './workbench-tools.js';

/** The built-in tools first, then the workbench's own. */
export function agentTools(context: ToolContext): AgentTool[] {
  return [readFileTool, editFileTool, runShellTool, ...workbenchAgentTools(context)];
}

export function findAgentTool(tools: readonly AgentTool[], name: string): AgentTool | undefined {
  return tools.find((tool) => tool.name === name);
}

/**
 * For createPermit's `safeByDefault`: reads are, and a workbench tool is when it is read-only (its
 * argument starts with its name, see workbench-tools.ts).
 */
export function safeByDefaultOf(tools: readonly AgentTool[]): (tool: PermissionTool, argument: string) => boolean {
  return (tool, argument) => {
    if (tool === 'read') return true;
    if (tool !== 'workbench') return false;
    const name = argument.split(' ', 1)[0] ?? '';
    return tools.some((candidate) => candidate.permission === 'workbench' && candidate.name === name && candidate.safeByDefault);
  };
}

/** The word a tool's rows start with (`shell npm test → exit 1`), so a refusal reads like the call it stopped. */
function verbOf(tool: AgentTool): string {
  return tool.permission === 'workbench' ? tool.name : tool.permission;
}

export async function runToolCall(tools: readonly AgentTool[], call: ToolCallRequest, context: AgentToolContext, permit: Permit): Promise<{result: ToolResult; row: ToolRow}> {
  const fail = (message: string, summary: string, decision?: PermissionDecision) => ({
    result: {callId: call.id, content: message, isError: true},
    row: {kind: 'tool' as const, callId: call.id, tool: call.name, summary, error: message, ...(decision ? {decision} : {})},
  });

  const tool = findAgentTool(tools, call.name);
  if (!tool) {
    const names = tools.map((candidate) => candidate.name).join(', ');
    return fail(`There is no tool named ${JSON.stringify(call.name)}. The tools are: ${names}.`, `${oneLine(call.name)}: no such tool`);
  }

  let argument: string;
  try {
    argument = tool.argument(call.input, context);
  } catch (error) {
    return fail(describeError(error), `${call.name}: bad arguments`);
  }

  let decision: PermissionDecision;
  try {
    let preview: string | undefined;
    try {
      preview = await tool.preview?.(call.input, context);
    } catch {
      // An edit that cannot apply has no diff to show; running it says why.
    }
    const answer = await permit({tool: tool.permission, argument, ...(preview !== undefined ? {preview} : {})});
    decision = answer.decision;
    if (!answer.allowed) {
      return fail(`Not run: ${decision.reason}.`, `${verbOf(tool)} ${oneLine(argument)} → refused`, decision);
    }
  } catch (error) {
    return fail(`Not run: the permission check failed (${describeError(error)}).`, `${verbOf(tool)} ${oneLine(argument)} → refused`);
  }

  try {
    const outcome = await tool.run(call.input, context);
    return {
      result: {callId: call.id, content: outcome.content, isError: outcome.isError},
      row: {kind: 'tool', callId: call.id, ...outcome.row, decision},
    };
  } catch (error) {
    const message = describeError(error);
    return fail(message, `${call.name} ${oneLine(argument)} → failed`, decision);
  }
}

/** For a one-line row: no line breaks or controls, at most 100 characters. */
function oneLine(text: string): string {
  const line = toTerminalLine(text).trim();
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
