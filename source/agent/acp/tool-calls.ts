import {isAbsolute, relative} from 'node:path';
import type {ToolCallContent, ToolCallUpdate, ToolKind} from '@agentclientprotocol/sdk';
import {FILE_HEADERS_ONLY, createTwoFilesPatch} from 'diff';
import type {PermissionDecision, PermissionTool, ToolRow} from '../types.js';

/** What we know of one of the agent's tool calls: `tool_call`, then `tool_call_update`s merged in. */
export interface ToolCallState {
  id: string;
  title?: string;
  kind?: ToolKind;
  status?: string;
  content?: ToolCallContent[];
  locations?: Array<{path: string; line?: number | null}>;
  rawInput?: unknown;
  rawOutput?: unknown;
  decision?: PermissionDecision;
  /** Refused by the rules or the user: the row says so whatever the agent reports next. */
  refused?: boolean;
  shown?: boolean;
}

// The detail of a row is for reading, not a log: a command's whole output is not kept.
const MAX_DETAIL = 20_000;

/** Merges a `tool_call`, `tool_call_update` or the tool call of a permission request into what is known (absent fields keep their value). */
export function mergeToolCall(state: ToolCallState | undefined, update: Omit<ToolCallUpdate, 'toolCallId'> & {toolCallId: string}): ToolCallState {
  const next: ToolCallState = state ?? {id: update.toolCallId};
  if (update.title != null) next.title = update.title;
  if (update.kind != null) next.kind = update.kind;
  if (update.status != null) next.status = update.status;
  if (update.content != null) next.content = update.content;
  if (update.locations != null) next.locations = update.locations;
  if (update.rawInput !== undefined) next.rawInput = update.rawInput;
  if (update.rawOutput !== undefined) next.rawOutput = update.rawOutput;
  return next;
}

export const isFinished = (state: ToolCallState) => state.status === 'completed' || state.status === 'failed';

/** ACP tool kinds onto the rule vocabulary of `.workbench.kdl`. */
export function permissionToolOf(kind: ToolKind | undefined): PermissionTool {
  switch (kind) {
    case 'execute':
      return 'shell';
    case 'edit':
    case 'delete':
    case 'move':
      return 'edit';
    case 'read':
    case 'search':
    case 'fetch':
      return 'read';
    default:
      return 'workbench';
  }
}

/**
 * What the rules match: the command of a shell call, else the paths it touches (relative to the
 * workspace when inside it, as rules are written), else its title.
 */
export function argumentOf(state: ToolCallState, cwd: string): string {
  const input = (state.rawInput ?? {}) as Record<string, unknown>;
  const command = input.command ?? input.cmd;
  if (typeof command === 'string' && command.trim()) return command.trim();
  if (Array.isArray(command) && command.every((part) => typeof part === 'string') && command.length > 0) return command.join(' ');
  const paths = (state.locations ?? []).map((location) => location.path);
  for (const key of ['path', 'file_path', 'filePath', 'abs_path']) if (paths.length === 0 && typeof input[key] === 'string') paths.push(input[key]);
  if (paths.length > 0) return [...new Set(paths)].map((path) => workspacePath(path, cwd)).join(' ');
  return state.title ?? state.kind ?? 'tool call';
}

function workspacePath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const inside = relative(cwd, path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}

/** The diffs and text the agent attached, as one block of text. */
export function contentText(state: ToolCallState, cwd: string): string | undefined {
  const parts: string[] = [];
  for (const item of state.content ?? []) {
    if (item.type === 'diff') {
      const name = workspacePath(item.path, cwd);
      parts.push(createTwoFilesPatch(name, name, item.oldText ?? '', item.newText, undefined, undefined, {context: 3, headerOptions: FILE_HEADERS_ONLY}).trimEnd());
    } else if (item.type === 'content') {
      parts.push(item.content.type === 'text' ? item.content.text : `[${item.content.type}]`);
    } else {
      parts.push(`[terminal ${item.terminalId}]`);
    }
  }
  if (parts.length === 0 && typeof state.rawOutput === 'string') parts.push(state.rawOutput);
  if (parts.length === 0) return undefined;
  const text = parts.join('\n');
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}\n… (${text.length - MAX_DETAIL} more characters)` : text;
}

function exitCodeOf(state: ToolCallState): number | undefined {
  const output = state.rawOutput as Record<string, unknown> | undefined;
  if (typeof output !== 'object' || output === null) return undefined;
  for (const key of ['exitCode', 'exit_code', 'code']) if (typeof output[key] === 'number') return output[key];
  return undefined;
}

/** The one row of a tool call: `execute Run npm test → exit 0`, `edit Edit src/app.ts → refused`. */
export function toolRow(state: ToolCallState, cwd: string): ToolRow {
  const exitCode = exitCodeOf(state);
  const kind = state.kind ?? 'other';
  const outcome = state.refused
    ? 'refused'
    : exitCode !== undefined
      ? `exit ${exitCode}`
      : state.status === 'completed'
        ? 'done'
        : state.status === 'failed'
          ? 'failed'
          : `${state.status ?? 'pending'}, not finished when the turn ended`;
  const detail = contentText(state, cwd);
  const row: ToolRow = {kind: 'tool', callId: state.id, tool: kind, summary: `${kind} ${state.title ?? argumentOf(state, cwd)} → ${outcome}`};
  if (detail !== undefined) row.detail = detail;
  if (exitCode !== undefined) row.exitCode = exitCode;
  if (state.refused) row.error = state.decision?.reason ?? 'refused';
  else if (state.status === 'failed') row.error = detail?.split('\n')[0] || 'the tool call failed';
  if (state.decision) row.decision = state.decision;
  return row;
}
