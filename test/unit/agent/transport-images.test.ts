// A tool result's images reach the model in each wire format's own shape: image blocks inside the
// messages API's tool_result, and a user message of image_url parts after chat-completions' tool messages.
import {describe, expect, it} from 'vitest';
import {toChatMessages} from '../../../source/agent/transport/chat-completions.js';
import {toMessages} from '../../../source/agent/transport/messages.js';
import type {ConversationMessage} from '../../../source/agent/types.js';

const conversation: ConversationMessage[] = [
  {role: 'user', text: 'show me photo 1'},
  {role: 'assistant', text: '', toolCalls: [{id: 'c1', name: 'media_photo', input: {id: 1}}]},
  {
    role: 'tool',
    results: [{callId: 'c1', content: 'photo 1: a beach', isError: false, images: [{mediaType: 'image/png', data: 'iVBORw0='}, {url: 'https://example.test/p.png'}]}],
  },
];

describe('tool images on the wire', () => {
  it('messages: the tool_result holds the text, then a base64 and a URL image block', () => {
    const [, , results] = toMessages(conversation);
    expect(results).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'c1',
          content: [
            {type: 'text', text: 'photo 1: a beach'},
            {type: 'image', source: {type: 'base64', media_type: 'image/png', data: 'iVBORw0='}},
            {type: 'image', source: {type: 'url', url: 'https://example.test/p.png'}},
          ],
          is_error: undefined,
        },
      ],
    });
  });

  it('chat-completions: the tool message keeps its text, a user message after it carries the images', () => {
    const out = toChatMessages('system', conversation);
    expect(out.slice(3)).toEqual([
      {role: 'tool', tool_call_id: 'c1', content: 'photo 1: a beach'},
      {
        role: 'user',
        content: [
          {type: 'text', text: 'Images returned by the tool calls above:'},
          {type: 'image_url', image_url: {url: 'data:image/png;base64,iVBORw0='}},
          {type: 'image_url', image_url: {url: 'https://example.test/p.png'}},
        ],
      },
    ]);
  });

  it('a result without images is unchanged: plain text content', () => {
    const plain: ConversationMessage[] = [conversation[0]!, conversation[1]!, {role: 'tool', results: [{callId: 'c1', content: 'ok', isError: false}]}];
    expect(toMessages(plain)[2]).toEqual({role: 'user', content: [{type: 'tool_result', tool_use_id: 'c1', content: 'ok', is_error: undefined}]});
    expect(toChatMessages('s', plain)).toHaveLength(4);
  });
});
