import type {SessionUpdate, ToolCallUpdate} from '@agentclientprotocol/sdk';
import type {AgentEvent, PermissionDecision} from '../types.js';
import {isFinished, mergeToolCall, toolRow, type ToolCallState} from './tool-calls.js';

/**
 * One prompt turn's `session/update` notifications as transcript events: message chunks stream
 * as deltas and become a `text` row when a tool call follows them, or the `answer` row at the
 * end; each tool call becomes one row when it finishes (or when the turn ends without it
 * finishing); a plan becomes a plan row each time the agent sends one. Thought chunks are not
 * shown: they are the agent's working, not its answer (an editor folds them away too).
 */
export class TurnRows {
  private text = '';
  private readonly calls = new Map<string, ToolCallState>();

  constructor(
    private readonly cwd: string,
    private readonly emit: (event: AgentEvent) => void,
  ) {}

  update(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content.type === 'text') {
          this.text += update.content.text;
          this.emit({type: 'delta', text: update.content.text});
        } else {
          this.emit({type: 'row', row: {kind: 'notice', text: `the agent sent ${update.content.type} content, which is not shown here`}});
        }
        return;
      case 'tool_call':
      case 'tool_call_update':
        this.flushText();
        this.track(update);
        return;
      case 'plan':
        this.flushText();
        this.emit({type: 'row', row: {kind: 'plan', entries: update.entries.map((entry) => ({content: entry.content, status: entry.status}))}});
        return;
      default:
        // Thoughts, the user's own message echoed, commands, modes, context usage: nothing to show.
        return;
    }
  }

  /** Merges the tool call a permission request is about; returns what is known of it. */
  permissionAsked(toolCall: ToolCallUpdate): ToolCallState {
    this.flushText();
    const state = mergeToolCall(this.calls.get(toolCall.toolCallId), toolCall);
    this.calls.set(state.id, state);
    return state;
  }

  permissionDecided(state: ToolCallState, allowed: boolean, decision: PermissionDecision): void {
    state.decision = decision;
    if (!allowed) {
      state.refused = true;
      this.show(state);
    }
  }

  /** The end of the turn: tool calls that never finished, then the answer (or, when the turn broke off, the text so far). */
  finish(complete: boolean): void {
    for (const state of this.calls.values()) this.show(state);
    if (!this.text) return;
    this.emit({type: 'row', row: complete ? {kind: 'answer', text: this.text} : {kind: 'text', text: this.text}});
    this.text = '';
  }

  private track(update: ToolCallUpdate): void {
    const state = mergeToolCall(this.calls.get(update.toolCallId), update);
    this.calls.set(state.id, state);
    if (isFinished(state)) this.show(state);
  }

  private show(state: ToolCallState): void {
    if (state.shown) return;
    state.shown = true;
    this.emit({type: 'row', row: toolRow(state, this.cwd)});
  }

  private flushText(): void {
    if (!this.text) return;
    this.emit({type: 'row', row: {kind: 'text', text: this.text}});
    this.text = '';
  }
}
