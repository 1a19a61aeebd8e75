import React from 'react';
import {Box, Text} from 'ink';
import type {TrafficEntry} from '../../../devproxy/types.js';
import {STATUS_COLOURS, statusClass} from './statusClass.js';

const METHOD_WIDTH = 7;
const STATUS_WIDTH = 4;
const DURATION_WIDTH = 7;
const SIZE_WIDTH = 7;

/** `12ms`, `1.4s`, `2m05s`: as short as the column. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '-';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

/** `512B`, `3.4K`, `12M`. */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '-';
  if (bytes < 1024) return `${bytes}B`;
  const units = ['K', 'M', 'G'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)}${units[unit]}`;
}

/** The path and query of a URL the proxy logged (absolute when it went elsewhere). */
export function shownPath(url: string): string {
  return url.startsWith('/') ? url : url.replace(/^https?:\/\/[^/]+(?=\/|$)/, '') || '/';
}

/** What a non-HTTP entry says in the list: a tag, its colour and one line. */
function describeOther(entry: Exclude<TrafficEntry, {type: 'http'}>): {tag: string; colour: string; text: string} {
  const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ⏎ ');
  switch (entry.type) {
    case 'error':
      return {tag: 'JS', colour: 'red', text: `${oneLine(entry.message)}  ${shownPath(entry.page)}`};
    case 'custom':
      return {tag: entry.level.toUpperCase(), colour: entry.level === 'error' ? 'red' : entry.level === 'warn' ? 'yellow' : 'gray', text: oneLine(entry.message)};
    case 'diagnostic':
      return {
        tag: 'PROXY',
        colour: entry.level === 'error' ? 'magenta' : 'gray',
        text: `${entry.category}: ${oneLine(entry.message)}${entry.url ? `  ${entry.method ?? ''} ${shownPath(entry.url)}` : ''}`,
      };
    case 'page':
      return {tag: 'PAGE', colour: 'blue', text: `${entry.event} ${entry.url}${entry.title ? `  “${entry.title}”` : ''}`};
  }
}

/** One line of the request list: method, status (coloured by class), path, duration, size. */
export function TrafficRow({
  entry,
  selected,
  focused,
  width,
  compact,
}: {
  entry: TrafficEntry;
  selected: boolean;
  focused: boolean;
  width: number;
  compact: boolean;
}): React.JSX.Element {
  const mark = selected ? '▸ ' : '  ';
  if (entry.type !== 'http') {
    const other = describeOther(entry);
    return (
      <Box height={1} width={width}>
        <Text inverse={selected && focused} bold={selected} wrap="truncate-end">
          {mark}
          <Text color={other.colour}>{other.tag.padEnd(METHOD_WIDTH + 1 + STATUS_WIDTH)}</Text> {other.text}
        </Text>
      </Box>
    );
  }
  const shownClass = statusClass(entry.status);
  const status = shownClass === 'failed' ? 'ERR' : String(entry.status);
  const tail = compact ? '' : ` ${formatDuration(entry.durationMs).padStart(DURATION_WIDTH)} ${formatSize(entry.responseBytes).padStart(SIZE_WIDTH)}`;
  const path = shownPath(entry.url) + (shownClass === 'failed' && entry.error ? `  (${entry.error})` : '');
  return (
    <Box height={1} width={width}>
      <Box flexGrow={1} flexShrink={1} overflow="hidden">
        <Text inverse={selected && focused} bold={selected} wrap="truncate-end">
          {mark}
          {entry.method.padEnd(METHOD_WIDTH).slice(0, METHOD_WIDTH)}{' '}
          <Text color={STATUS_COLOURS[shownClass]} bold={shownClass === '5xx' || shownClass === 'failed'}>
            {status.padEnd(STATUS_WIDTH)}
          </Text>{' '}
          {path}
        </Text>
      </Box>
      {tail && (
        <Box flexShrink={0}>
          <Text dimColor inverse={selected && focused}>
            {tail}
          </Text>
        </Box>
      )}
    </Box>
  );
}
