import React from 'react';
import {Box, Text} from 'ink';
import {Command, matchesCommand, type Keypress} from '../../key/keyBindings.js';
import {useKeypress} from '../../hooks/useKeypress.js';
import {useTextInput} from '../../hooks/useTextInput.js';
import {KeyPriority} from '../../key/keyPriority.js';
import {InputLine} from '../../components/InputLine.js';
import type {EditorState} from '../graphql/editorModel.js';

/** One line of typed text (`a`'s feed URL, `z`'s snooze time, proxy exec). Enter submits (a paste ending in a newline too), Esc cancels. */
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
  const input = useTextInput((text) => onSubmit(text.trim()), {singleLine: true});
  useKeypress(
    (press) => {
      if (matchesCommand(Command.INPUT_CANCEL, press)) onCancel();
      else input.handle(press);
      // Every key belongs to the prompt while it is open (q types a q).
      return true;
    },
    {isActive: focused, priority: KeyPriority.INPUT},
  );
  return <PromptLine label={label} hint={hint} state={input.state} width={width} />;
}

/** The prompt's line alone, for an owner that holds the text and the keys itself (the Feeds pane). */
export function PromptLine({label, hint, state, width}: {label: string; hint: string | ((draft: string) => string); state: EditorState; width: number}): React.JSX.Element {
  const draft = state.lines.join(' ');
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate-start">
        <Text color="cyan">{label} </Text>
        <InputLine state={state} />
        <Text dimColor> {typeof hint === 'function' ? hint(draft) : hint}</Text>
      </Text>
    </Box>
  );
}

/** newsboat's confirm: `y` confirms, any other key cancels. */
export const isYes = (press: Keypress) => press.name === undefined && !press.ctrl && !press.meta && (press.input === 'y' || press.input === 'Y');

/** A yes/no question on one line; its owner answers it with isYes. */
export function ConfirmLine({question, width}: {question: string; width: number}): React.JSX.Element {
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate-end">
        <Text color="yellow">{question}</Text>
        <Text dimColor> y yes · any other key no</Text>
      </Text>
    </Box>
  );
}
