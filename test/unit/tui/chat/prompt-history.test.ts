import {describe, expect, it} from 'vitest';
import {createAskerRelay} from '../../../../source/cli/agent/inline-chat.js';
import {emptyHistory, recall, withPrompt} from '../../../../source/tui/panes/chat/promptHistory.js';
import type {PermissionRequest} from '../../../../source/agent/types.js';

describe('the input box history', () => {
  it('walks older with ↑ and newer with ↓, back to the text being written, as a shell does', () => {
    let history = withPrompt(withPrompt(emptyHistory, 'one'), 'two');
    const older = recall(history, 1, 'draft')!;
    expect(older.text).toBe('two');
    history = older.history;
    const oldest = recall(history, 1, older.text)!;
    expect(oldest.text).toBe('one');
    expect(recall(oldest.history, 1, 'one')).toBeUndefined();
    const newer = recall(oldest.history, -1, 'one')!;
    expect(newer.text).toBe('two');
    const back = recall(newer.history, -1, 'two')!;
    expect(back.text).toBe('draft');
    expect(recall(back.history, -1, 'draft')).toBeUndefined();
  });

  it('moves a repeated message to the top instead of keeping it twice', () => {
    const history = withPrompt(withPrompt(withPrompt(emptyHistory, 'a'), 'b'), 'a');
    expect(history.entries).toEqual(['a', 'b']);
  });
});

describe('the asker relay of the inline chat', () => {
  it('holds a request made before the chat is there until it attaches, then answers through it', async () => {
    const relay = createAskerRelay();
    const request: PermissionRequest = {tool: 'shell', argument: 'ls', decision: {action: 'ask', rule: null, reason: 'shell commands ask by default'}};
    const answer = relay.ask(request);
    const seen: PermissionRequest[] = [];
    relay.attach(async (asked) => (seen.push(asked), 'always'));
    await expect(answer).resolves.toBe('always');
    expect(seen).toEqual([request]);
  });
});
