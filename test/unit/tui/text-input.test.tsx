import React from 'react';
import {Text} from 'ink';
import {cleanup, render} from 'ink-testing-library';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {useTextInput, type TextInput, type TextInputOptions} from '../../../source/tui/hooks/useTextInput.js';
import type {Keypress} from '../../../source/tui/key/keyBindings.js';
import {KeySplitter} from '../../../source/tui/key/keySequences.js';
import {editorText} from '../../../source/tui/panes/graphql/editorModel.js';

// The one text input every box of the TUI holds its text in. Keys come faster than frames (a
// paste, `send-keys 'text' Enter`, fast typing): here every key of a read is handed to the input
// before React renders again, the case the boxes that read React state in their Enter handler
// lost the last characters in (issue 26: /small_atom.xm, document.title.lengt).

afterEach(() => cleanup());

function mount(options: TextInputOptions & {submit?: boolean} = {}) {
  const submitted: string[] = [];
  const box: {input?: TextInput} = {};
  function Box() {
    const input = useTextInput(options.submit === false ? undefined : (text) => void submitted.push(text), options);
    box.input = input;
    return <Text>[{editorText(input.state)}]</Text>;
  }
  const app = render(<Box />);
  /** Every key of `raw`, as the terminal read gives them, handed over with no render between. */
  const read = (raw: string) => {
    const input = box.input!;
    for (const press of new KeySplitter().push(raw)) input.handle(press);
  };
  return {app, submitted, read, input: () => box.input!};
}

const paste = (text: string): Keypress => ({input: text, paste: true, ctrl: false, shift: false, meta: false});

describe('the one text input', () => {
  it('submits every character of text and Enter that arrive in one read', () => {
    for (const singleLine of [true, false]) {
      const {submitted, read} = mount({singleLine});
      read('http://127.0.0.1:8080/data/small_atom.xml\r');
      read('document.title.length\r');
      expect(submitted).toEqual(['http://127.0.0.1:8080/data/small_atom.xml', 'document.title.length']);
      cleanup();
    }
  });

  it('edits what the last key left, not the last frame: backspace, Ctrl-U, Ctrl-A then typing', () => {
    const {submitted, read} = mount({singleLine: true});
    read('abcx\u007fd\r');
    read('gone\u0015kept\r');
    read('tail\u0001head \r');
    expect(submitted).toEqual(['abcd', 'kept', 'head tail']);
  });

  it('a one-line box submits a paste up to its first line break; a multi-line one keeps it whole', () => {
    const one = mount({singleLine: true});
    one.input().handle(paste('https://example.org/feed.xml\nsecond line'));
    expect(one.submitted).toEqual(['https://example.org/feed.xml']);
    cleanup();
    const many = mount({submit: false});
    many.input().handle(paste('{\n  a\n}'));
    many.read('\rb');
    expect(many.input().text()).toBe('{\n  a\n}\nb');
  });

  it('draws the text the keys left once React renders', async () => {
    const {app, read} = mount({singleLine: true});
    read('typed fast');
    await vi.waitFor(() => expect(app.lastFrame()).toContain('[typed fast]'));
  });
});
