import React from 'react';
import {Box, Text} from 'ink';
import type {DetailLine} from './detailLines.js';

/** The first row to show so `scroll` rows are skipped, never past the last screenful. */
export function clampScroll(scroll: number, total: number, rows: number): number {
  return Math.max(0, Math.min(scroll, total - rows));
}

/** Rows of a detail (a request, an exec answer) from `scroll` on, with where the view is when it does not all fit. */
export function ScrolledLines({lines, scroll, width, height, footer}: {lines: DetailLine[]; scroll: number; width: number; height: number; footer: string}): React.JSX.Element {
  const rows = Math.max(1, height - 1);
  const top = clampScroll(scroll, lines.length, rows);
  const shown = lines.slice(top, top + rows);
  const where = lines.length > rows ? `${top + 1}-${top + shown.length} of ${lines.length} · ` : '';
  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      <Text dimColor wrap="truncate-end">
        {where + footer}
      </Text>
      {shown.map((line, index) => (
        <Box key={top + index} height={1} width={width}>
          <Text bold={line.heading} underline={line.heading && !line.colour} color={line.colour} dimColor={line.dim} wrap="truncate-end">
            {line.text === '' ? ' ' : line.text}
          </Text>
        </Box>
      ))}
    </Box>
  );
}
