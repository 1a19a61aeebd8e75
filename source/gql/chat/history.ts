import type {ConversationMessage} from '../../agent/types.js';
import type {StoredMessage} from './chat-store.js';

/** A `tool` row's content: the call and what the model was told. */
export interface StoredToolCall {
  id: string;
  name: string;
  input: unknown;
  result: string;
  isError: boolean;
}

/**
 * A conversation's stored rows as the model's history: user messages, assistant turns with the
 * tool calls they made and those calls' results. `plan`, `approval` and `error` rows are for people
 * (the plan is already in its tool's result); a tool row without the assistant turn before it is
 * dropped, since each wire format wants a call and its result in pairs.
 */
export function historyOf(rows: readonly StoredMessage[]): ConversationMessage[] {
  const out: ConversationMessage[] = [];
  for (const row of rows) {
    if (row.role === 'user') out.push({role: 'user', text: row.content});
    else if (row.role === 'assistant') out.push({role: 'assistant', text: row.content, toolCalls: []});
    else if (row.role === 'tool') {
      let call: StoredToolCall;
      try {
        call = JSON.parse(row.content) as StoredToolCall;
      } catch {
        continue;
      }
      const last = out.at(-1);
      const asking = last?.role === 'tool' ? out.at(-2) : last;
      if (asking?.role !== 'assistant') continue;
      asking.toolCalls.push({id: call.id, name: call.name, input: call.input});
      const result = {callId: call.id, content: call.result, isError: call.isError};
      if (last?.role === 'tool') last.results.push(result);
      else out.push({role: 'tool', results: [result]});
    }
  }
  return out;
}
