import React, {useState} from 'react';
import {Box, Text} from 'ink';
import {useKeypress} from '../../hooks/useKeypress.js';
import {KeyPriority} from '../../key/keyPriority.js';
import {typedText} from '../../key/keyBindings.js';

/** `z`: one line asking until when; Enter on nothing means tomorrow 08:00, Esc cancels. */
export function SnoozePrompt({focused, width, onSubmit, onCancel}: {focused: boolean; width: number; onSubmit: (text: string) => void; onCancel: () => void}): React.JSX.Element {
  const [draft, setDraft] = useState('');
  useKeypress(
    (press) => {
      if (press.name === 'return') onSubmit(draft.trim() || 'tomorrow');
      else if (press.name === 'escape') onCancel();
      else if (press.name === 'backspace' || press.name === 'delete') setDraft((text) => text.slice(0, -1));
      else if (press.ctrl && press.input === 'u') setDraft('');
      else if (/[\r\n]/.test(press.input)) {
        // Typed fast or pasted, "2h⏎" arrives as one chunk: the text, then Enter.
        onSubmit((draft + typedText({...press, input: press.input.split(/[\r\n]/)[0]!})).trim() || 'tomorrow');
      } else {
        const text = typedText(press);
        if (text) setDraft((previous) => previous + text);
      }
      return true;
    },
    {isActive: focused, priority: KeyPriority.INPUT},
  );
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate-start">
        <Text color="cyan">snooze until: </Text>
        {draft}
        <Text inverse> </Text>
        <Text dimColor> enter: {draft.trim() ? 'snooze' : 'tomorrow 08:00'} · 30m, 1h, 2d, an ISO time · esc cancel</Text>
      </Text>
    </Box>
  );
}
