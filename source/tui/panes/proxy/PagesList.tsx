import React from 'react';
import {Box, Text} from 'ink';
import type {PageSession} from '../../../devproxy/types.js';
import {formatAge} from '../../../incidents/age.js';

/** The ages a page row shows, for the clock: the pane redraws only when one reads differently. */
export function pageAges(page: PageSession, now: number): string {
  return `${formatAge(now - page.loadedAt)} ${page.lastInteraction === undefined ? '' : formatAge(now - page.lastInteraction)}`;
}

/** `p`: the browser tabs on this proxy (currentpage): URL, title, errors and failed requests since load, last interaction. */
export function PagesList({
  pages,
  error,
  now,
  width,
  height,
}: {
  pages: PageSession[] | undefined;
  error: string | undefined;
  now: number;
  width: number;
  height: number;
}): React.JSX.Element {
  const shown = (pages ?? []).slice(0, Math.max(0, Math.floor((height - 1) / 2)));
  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      <Text bold wrap="truncate-end">
        Pages <Text dimColor>(browser tabs on this proxy · p back to the requests)</Text>
      </Text>
      {pages === undefined && !error && <Text dimColor>loading…</Text>}
      {pages?.length === 0 && <Text dimColor>no page connected · open the proxy’s URL in a browser</Text>}
      {shown.map((page) => (
        <Box key={page.session} flexDirection="column" height={2} width={width}>
          <Text wrap="truncate-end">
            <Text color={page.connected ? 'green' : 'gray'}>{page.connected ? '● ' : '○ '}</Text>
            {page.url}
            {page.title ? <Text dimColor>{`  “${page.title}”`}</Text> : null}
          </Text>
          <Text wrap="truncate-end">
            {'  '}
            <Text dimColor>{`loaded ${formatAge(now - page.loadedAt)} ago · `}</Text>
            <Text color={page.errors > 0 ? 'red' : undefined} dimColor={page.errors === 0}>{`${page.errors} error${page.errors === 1 ? '' : 's'}`}</Text>
            <Text dimColor> · </Text>
            <Text
              color={page.failedRequests > 0 ? 'yellow' : undefined}
              dimColor={page.failedRequests === 0}
            >{`${page.failedRequests} failed request${page.failedRequests === 1 ? '' : 's'}`}</Text>
            <Text
              dimColor
            >{` · ${page.lastInteraction === undefined ? 'no interaction yet' : `last interaction ${formatAge(now - page.lastInteraction)} ago`}${page.connected ? '' : ' · disconnected'}`}</Text>
          </Text>
        </Box>
      ))}
      {(pages?.length ?? 0) > shown.length && <Text dimColor>{`+${pages!.length - shown.length} more`}</Text>}
    </Box>
  );
}
