import {describeError, isWorkbenchError} from '../../core/errors.js';
import type {AgentEvent, ConversationMessage, ModelToolSpec, ModelTransport, ToolCallRequest, ToolResult, ToolRow} from '../types.js';

/** Runs one tool call the model asked for: lookup, validation, permission, the tool, its row. Never throws. */
export type CallTool = (call: ToolCallRequest, signal: AbortSignal) => Promise<{result: ToolResult; row: ToolRow}>;

export interface TurnLoopOptions {
  transport: ModelTransport;
  model: string;
  system: string;
  tools: ModelToolSpec[];
  callTool: CallTool;
  /** Model requests per user message; the loop stops with an error row past it. */
  maxTurns: number;
  maxTokens: number;
  signal: AbortSignal;
}

export interface TurnLoopOutcome {
  usage: {input: number; output: number};
  /** Model requests made. */
  turns: number;
  /** How the loop ended: the model answered, it ran out of turns, it was cancelled, or a request failed. */
  ending: 'answer' | 'max-turns' | 'cancelled' | 'error';
}

/**
 * The agent loop for one user message (already appended to `messages`): ask the model, run the
 * tools it calls one at a time (a permission prompt is one question at a time), give it the
 * results, and again, until it answers without calling a tool. `messages` grows in place, so the
 * next user message continues the same conversation. Failures become `error` rows, not throws:
 * a face prints rows, whatever happened.
 */
export async function runTurns(options: TurnLoopOptions, messages: ConversationMessage[], onEvent: (event: AgentEvent) => void): Promise<TurnLoopOutcome> {
  const usage = {input: 0, output: 0};
  let turns = 0;
  const end = (ending: TurnLoopOutcome['ending']): TurnLoopOutcome => ({usage, turns, ending});
  const cancelled = () => {
    onEvent({type: 'row', row: {kind: 'error', code: 'cancelled', message: 'cancelled'}});
    return end('cancelled');
  };
  while (turns < options.maxTurns) {
    if (options.signal.aborted) return cancelled();
    turns += 1;
    let reply;
    try {
      reply = await options.transport.turn(
        {model: options.model, system: options.system, messages, tools: options.tools, maxTokens: options.maxTokens, signal: options.signal},
        (text) => onEvent({type: 'delta', text}),
      );
    } catch (error) {
      if (options.signal.aborted) return cancelled();
      const code = isWorkbenchError(error) ? error.code : 'internal';
      onEvent({type: 'row', row: {kind: 'error', code, message: describeError(error)}});
      return end('error');
    }
    usage.input += reply.usage.input;
    usage.output += reply.usage.output;
    messages.push({role: 'assistant', text: reply.text, toolCalls: reply.toolCalls});
    if (reply.toolCalls.length === 0) {
      onEvent({type: 'row', row: {kind: 'answer', text: reply.text}});
      return end('answer');
    }
    if (reply.text.trim()) onEvent({type: 'row', row: {kind: 'text', text: reply.text}});
    const results: ToolResult[] = [];
    for (const call of reply.toolCalls) {
      // A cancelled turn still answers every call: the next request must pair each call with a result.
      if (options.signal.aborted) {
        results.push({callId: call.id, content: 'cancelled by the user', isError: true});
        continue;
      }
      const {result, row} = await options.callTool(call, options.signal);
      onEvent({type: 'row', row});
      results.push(result);
    }
    messages.push({role: 'tool', results});
  }
  onEvent({
    type: 'row',
    row: {
      kind: 'error',
      code: 'max_turns',
      message: `stopped after ${options.maxTurns} model requests (--max-turns ${options.maxTurns}) while the model was still calling tools; ask again to go on, or raise --max-turns`,
    },
  });
  return end('max-turns');
}
