import React, {useState} from 'react';
import {Box, Text} from 'ink';
import {useKeypress} from '../../hooks/useKeypress.js';
import {KeyPriority} from '../../key/keyPriority.js';
import {typedText} from '../../key/keyBindings.js';

/** One line of typed text (`a`'s feed URL, `z`'s snooze time). Enter submits (a paste ending in a newline too), Esc cancels. */
export function LinePrompt({
  label,
  hint,
  focused,
  width,
  onSubmit,
  onCancel,
}: {
  label: string;
  /** Dim text after the cursor; may follow what is typed. */
  hint: string | ((draft: string) => string);
  focused: boolean;
  width: number;
  onSubmit: (text: string) => void;
  onCancel: () => void;
}): React.JSX.Element {
  const [draft, setDraft] = useState('');
  useKeypress(
    (press) => {
      if (press.name === 'return') onSubmit(draft.trim());
      else if (press.name === 'escape') onCancel();
      else if (press.name === 'backspace' || press.name === 'delete') setDraft((text) => text.slice(0, -1));
      else if (press.ctrl && press.input === 'u') setDraft('');
      else if (/[\r\n]/.test(press.input)) onSubmit((draft + typedText({...press, input: press.input.split(/[\r\n]/)[0]!})).trim());
      else {
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
        <Text color="cyan">{label} </Text>
        {draft}
        <Text inverse> </Text>
        <Text dimColor> {typeof hint === 'function' ? hint(draft) : hint}</Text>
      </Text>
    </Box>
  );
}

/** A yes/no question on one line, newsboat's confirm: `y` confirms, any other key cancels. */
export function ConfirmPrompt({question, focused, width, onAnswer}: {question: string; focused: boolean; width: number; onAnswer: (yes: boolean) => void}): React.JSX.Element {
  useKeypress(
    (press) => {
      onAnswer(press.name === undefined && !press.ctrl && !press.meta && (press.input === 'y' || press.input === 'Y'));
      return true;
    },
    {isActive: focused, priority: KeyPriority.INPUT},
  );
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate-end">
        <Text color="yellow">{question}</Text>
        <Text dimColor> y yes · any other key no</Text>
      </Text>
    </Box>
  );
}
