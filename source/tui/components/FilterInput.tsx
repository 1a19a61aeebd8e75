import React from 'react';
import {Box, Text} from 'ink';
import type {FilterInputState} from '../hooks/useFilterInput.js';
import {InputLine} from './InputLine.js';
import {Command, lineLabel} from '../key/keyBindings.js';
import {keyLine} from '../key/keyTable.js';

/** The filter line of a list: the input while typing, a reminder while a filter applies. */
export function FilterInput({filter, width}: {filter: FilterInputState; width: number}): React.JSX.Element | null {
  if (filter.editing) {
    return (
      <Box width={width} height={1}>
        <Text wrap="truncate-start">
          <Text color="cyan">/</Text>
          <InputLine state={filter.input} />
          <Text dimColor> {keyLine('global', 'filter')}</Text>
        </Text>
      </Box>
    );
  }
  if (!filter.text) return null;
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate-end">
        <Text color="cyan">filter: </Text>
        {filter.text}
        <Text dimColor>{` (${lineLabel(Command.FILTER)} edit · ${lineLabel(Command.BACK)} clear)`}</Text>
      </Text>
    </Box>
  );
}
