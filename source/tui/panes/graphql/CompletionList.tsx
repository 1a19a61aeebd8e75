import React from 'react';
import {Box, Text} from 'ink';
import {toTerminalLine} from '../../../text/terminal-safe.js';
import type {CompletionList as List} from './useGraphql.js';

export const COMPLETIONS_SHOWN = 8;

/** Rows the open list takes under the query: its candidates (at most COMPLETIONS_SHOWN), or one to say there are none. */
export function completionRows(list: List | undefined): number {
  return list ? Math.max(1, Math.min(COMPLETIONS_SHOWN, list.items.length)) : 0;
}

/** The completion candidates under the query box, the chosen one marked; the window follows the choice. */
export function CompletionList({list, width}: {list: List; width: number}): React.JSX.Element {
  const start = Math.max(0, Math.min(list.selected - COMPLETIONS_SHOWN + 1, list.items.length - COMPLETIONS_SHOWN));
  return (
    <Box height={completionRows(list)} width={width} flexDirection="column" overflowY="hidden">
      {list.items.length === 0 && <Text dimColor> no completion here</Text>}
      {list.items.slice(start, start + COMPLETIONS_SHOWN).map((choice, offset) => {
        const index = start + offset;
        return (
          <Box key={choice.label} height={1}>
            <Text inverse={index === list.selected} wrap="truncate-end">
              {index === list.selected ? ' ▸ ' : '   '}
              {toTerminalLine(choice.label)}
              <Text dimColor> {toTerminalLine(choice.detail)}</Text>
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
