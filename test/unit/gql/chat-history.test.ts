// Stored chat rows become the model's history: tool calls paired with their results under the
// assistant turn that made them; plan, approval and error rows and orphan tool rows left out.
import {describe, expect, it} from 'vitest';
import type {StoredMessage} from '../../../source/gql/chat/chat-store.js';
import {historyOf} from '../../../source/gql/chat/history.js';

let next = 0;
const row = (role: string, content: unknown): StoredMessage => ({
  id: ++next,
  role,
  content: typeof content === 'string' ? content : JSON.stringify(content),
  createdAt: '2026-01-01 00:00:00',
});
const tool = (id: string, result: string) => row('tool', {id, name: 'explore_photos', input: {limit: 1}, result, isError: false});

describe('historyOf', () => {
  it('pairs each tool row with the assistant turn before it, and keeps answers and user messages in order', () => {
    const history = historyOf([
      row('user', 'which photos?'),
      row('assistant', 'Looking.'),
      tool('c1', '{"total":1}'),
      tool('c2', '{"total":0}'),
      row('assistant', 'One photo.'),
      row('plan', {table: 'main.photos', operations: []}),
      row('approval', {planId: 6}),
      row('user', 'thanks'),
      row('error', 'model_unreachable: cut'),
    ]);
    expect(history).toEqual([
      {role: 'user', text: 'which photos?'},
      {
        role: 'assistant',
        text: 'Looking.',
        toolCalls: [
          {id: 'c1', name: 'explore_photos', input: {limit: 1}},
          {id: 'c2', name: 'explore_photos', input: {limit: 1}},
        ],
      },
      {
        role: 'tool',
        results: [
          {callId: 'c1', content: '{"total":1}', isError: false},
          {callId: 'c2', content: '{"total":0}', isError: false},
        ],
      },
      {role: 'assistant', text: 'One photo.', toolCalls: []},
      {role: 'user', text: 'thanks'},
    ]);
  });

  it('drops a tool row with no assistant turn before it, and one whose content is not JSON', () => {
    expect(historyOf([row('user', 'hi'), tool('c9', 'x'), row('tool', 'not json')])).toEqual([{role: 'user', text: 'hi'}]);
  });
});
