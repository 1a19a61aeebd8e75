import React from 'react';
import {Box, Text} from 'ink';
import {toTerminalLine} from '../../text/terminal-safe.js';

export interface PaneMessage {
  kind: 'info' | 'error';
  text: string;
}

/** One line for a backend failure or the outcome of an action; never more than a line, never a control character (messages quote titles, commands and server errors). */
export function MessageLine({message, width}: {message: PaneMessage | undefined; width: number}): React.JSX.Element | null {
  if (!message) return null;
  return (
    <Box width={width} height={1}>
      <Text color={message.kind === 'error' ? 'red' : 'green'} wrap="truncate-end">
        {message.kind === 'error' ? '! ' : ''}
        {toTerminalLine(message.text.replace(/\s*\n\s*/g, ' '))}
      </Text>
    </Box>
  );
}
