import React from 'react';
import {Box, Text} from 'ink';
import type {FullArticle} from '../../../feeds/types.js';
import {toTerminalLine} from '../../../text/terminal-safe.js';

export type ReaderLoad = {state: 'loading'} | {state: 'failed'; error: string} | {state: 'ready'; article: FullArticle};

/** Rows of article text a reader of this height shows (after header, rule and position line). */
export function readerBodyRows(headerRows: number, height: number): number {
  return Math.max(1, height - headerRows - 2);
}

/** The article as text: its fields (`markedRow`: the chosen enclosure's, marked ▸), a rule, then the body from `scroll`; scrolling is the pane's. */
export function ArticleReader({
  load,
  header,
  body,
  scroll,
  width,
  height,
  markedRow,
}: {
  load: ReaderLoad;
  header: string[];
  body: string[];
  scroll: number;
  width: number;
  height: number;
  markedRow?: number;
}): React.JSX.Element {
  if (load.state !== 'ready') {
    return (
      <Box width={width} height={height} flexDirection="column">
        {load.state === 'loading' ? (
          <Text dimColor>loading article…</Text>
        ) : (
          <Text color="red" wrap="truncate-end">
            ! {toTerminalLine(load.error)}
          </Text>
        )}
      </Box>
    );
  }
  const rows = readerBodyRows(header.length, height);
  const shown = body.slice(scroll, scroll + rows);
  const end = Math.min(body.length, scroll + rows);
  const position = body.length <= rows ? 'all' : end >= body.length ? 'end' : `${Math.round((end / body.length) * 100)}%`;
  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      {header.map((line, index) => (
        <Box key={index} height={1} width={width}>
          <Text bold={index === 0 || index === markedRow} dimColor={index > 0 && index !== markedRow} wrap="truncate-end">
            {index === markedRow ? `▸${line}` : line}
          </Text>
        </Box>
      ))}
      <Box height={1} width={width}>
        <Text dimColor wrap="truncate-end">
          {'─'.repeat(Math.max(0, width - 12))} {load.article.read ? 'read' : 'unread'} · {position}
        </Text>
      </Box>
      <Box height={rows} flexDirection="column" overflowY="hidden">
        {shown.map((line, index) => (
          <Box key={scroll + index} height={1} width={width}>
            <Text wrap="truncate-end">{line === '' ? ' ' : line}</Text>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
