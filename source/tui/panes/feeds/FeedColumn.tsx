import React from 'react';
import {Box, Text} from 'ink';
import type {FetchStatus} from '../../../feeds/types.js';

/** A row of the feeds column; id 0 is "All articles". */
export interface FeedEntry {
  id: number;
  title: string;
  unread: number;
  status?: FetchStatus;
  lastError?: string | null;
}

export const ALL_FEEDS = 0;

function FeedRow({entry, selected, active, width}: {entry: FeedEntry; selected: boolean; active: boolean; width: number}): React.JSX.Element {
  const mark = entry.status === 'error' ? <Text color="red">! </Text> : entry.status === 'pending' ? <Text dimColor>… </Text> : '  ';
  return (
    <Box height={1} width={width}>
      <Text inverse={selected && active} bold={selected || entry.unread > 0} dimColor={!selected && entry.unread === 0} wrap="truncate-end">
        {selected ? '▸' : ' '}
        {String(entry.unread || '').padStart(4)} {mark}
        {entry.title}
      </Text>
    </Box>
  );
}

/** Feeds with their unread counts; a failing feed is marked `!` (the pane shows its error). */
export function FeedColumn({
  entries,
  selectedIndex,
  start,
  active,
  width,
  height,
  emptyText,
}: {
  entries: FeedEntry[];
  selectedIndex: number;
  start: number;
  active: boolean;
  width: number;
  height: number;
  /** Under the rows: loading, or how to add the first feed. */
  emptyText: string;
}): React.JSX.Element {
  const rows = Math.max(0, height - 1);
  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden" flexShrink={0}>
      <Box height={1}>
        <Text bold={active} color={active ? 'cyan' : undefined} wrap="truncate-end">
          Feeds
        </Text>
      </Box>
      <Box height={rows} flexDirection="column" overflowY="hidden">
        {entries.slice(start, start + rows).map((entry, offset) => (
          <FeedRow key={entry.id} entry={entry} selected={start + offset === selectedIndex} active={active} width={width} />
        ))}
        {emptyText && (
          <Text dimColor wrap="wrap">
            {emptyText}
          </Text>
        )}
      </Box>
    </Box>
  );
}
