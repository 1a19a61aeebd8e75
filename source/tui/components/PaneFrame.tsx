import React from 'react';
import {Box, Text} from 'ink';

/** Border and title row around a pane in the full layout; rows and columns it takes from the pane. */
export const FRAME_ROWS = 3;
export const FRAME_COLUMNS = 2;

export function PaneFrame({
  number,
  title,
  focused,
  width,
  height,
  children,
}: {
  number: number;
  title: string;
  focused: boolean;
  width: number;
  height: number;
  children: React.ReactNode;
}): React.JSX.Element {
  return (
    <Box width={width} height={height} flexDirection="column" borderStyle="round" borderColor={focused ? 'cyan' : 'gray'} overflowY="hidden">
      <Box height={1} flexShrink={0}>
        <Text bold={focused} color={focused ? 'cyan' : undefined} dimColor={!focused} wrap="truncate-end">
          {`${number} ${title}`}
        </Text>
      </Box>
      <Box flexDirection="column" flexGrow={1} overflowY="hidden">
        {children}
      </Box>
    </Box>
  );
}
