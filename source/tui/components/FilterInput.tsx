import React from 'react';
import {Box, Text} from 'ink';
import type {FilterInputState} from '../hooks/useFilterInput.js';

/** The filter line of a list: the input while typing, a reminder while a filter applies. */
export function FilterInput({filter, width}: {filter: FilterInputState; width: number}): React.JSX.Element | null {
  if (filter.editing) {
    return (
      <Box width={width} height={1}>
        <Text wrap="truncate-start">
          <Text color="cyan">/</Text>
          {filter.draft}
          <Text inverse> </Text>
          <Text dimColor> enter keep · esc clear</Text>
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
        <Text dimColor> (/ edit · esc clear)</Text>
      </Text>
    </Box>
  );
}
