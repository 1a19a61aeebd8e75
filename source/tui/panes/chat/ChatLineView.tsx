import React from 'react';
import {Box, Text} from 'ink';
import type {ChatLine, Tone} from './chatLines.js';

const COLOURS: Partial<Record<Tone, string>> = {prompt: 'cyan', notice: 'yellow', 'tool-ok': 'green', 'tool-fail': 'red', error: 'red'};
const DIM: ReadonlySet<Tone> = new Set<Tone>(['auth', 'detail', 'usage', 'plan']);

/** One line of the conversation: plain text (selectable with the mouse), coloured by what it is. */
export const ChatLineView = React.memo(function ChatLineView({line, width, selected = false}: {line: ChatLine; width: number; selected?: boolean}): React.JSX.Element {
  return (
    <Box height={1} width={width}>
      <Text color={COLOURS[line.tone]} dimColor={DIM.has(line.tone)} bold={line.tone === 'prompt'} inverse={selected} wrap="truncate-end">
        {line.text || ' '}
      </Text>
    </Box>
  );
});
