import React, {useState} from 'react';
import {Text} from 'ink';
import {cleanup, render} from 'ink-testing-library';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {KeypressProvider} from '../../../source/tui/contexts/KeypressContext.js';
import {useKeypress} from '../../../source/tui/hooks/useKeypress.js';
import {KeyPriority} from '../../../source/tui/key/keyPriority.js';

afterEach(() => cleanup());

// A box whose handler reads React state, as the panes' do: `e` opens editing; ↓ then types `D`
// while editing, and moves the selection while browsing.
function Box(): React.JSX.Element {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const [moves, setMoves] = useState(0);
  useKeypress(
    (press) => {
      if (!editing && press.input === 'e') setEditing(true);
      else if (press.name === 'down') {
        if (editing) setText((current) => current + 'D');
        else setMoves((current) => current + 1);
      } else return false;
      return true;
    },
    {isActive: true, priority: KeyPriority.PANE},
  );
  return <Text>{`editing=${editing} text=${text} moves=${moves}`}</Text>;
}

describe('keys come one a turn', () => {
  it('a key of the next input in the same turn waits for React to commit what the key before it did', async () => {
    const app = render(
      <KeypressProvider>
        <Box />
      </KeypressProvider>,
    );
    // ink cuts a read at an escape sequence: `e` and ↓ from one read are two inputs in one turn.
    app.stdin.write('e');
    app.stdin.write('\u001b[B');
    await vi.waitFor(() => expect(app.lastFrame()).toBe('editing=true text=D moves=0'), {timeout: 10_000});
  });
});
