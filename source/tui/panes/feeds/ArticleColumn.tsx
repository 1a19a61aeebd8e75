import React from 'react';
import {Box, Text} from 'ink';
import type {Article} from '../../../feeds/types.js';
import {shortDate} from './shortDate.js';

const FEED_WIDTH = 16;

const fit = (text: string, width: number) => (text.length > width ? text.slice(0, width - 1) + '…' : text.padEnd(width));

function ArticleRow({
  article,
  feedTitle,
  selected,
  active,
  width,
  now,
}: {
  article: Article;
  feedTitle?: string;
  selected: boolean;
  active: boolean;
  width: number;
  now: Date;
}): React.JSX.Element {
  // An unread article snoozed until later is out of the unread counts: `z` says why, where `N` stands for new.
  const snoozed = !article.read && article.snoozedUntil !== null && Date.parse(article.snoozedUntil) > now.getTime();
  return (
    <Box height={1} width={width}>
      <Text inverse={selected && active} bold={!article.read && !snoozed} dimColor={(article.read || snoozed) && !selected} wrap="truncate-end">
        {selected ? '▸' : ' '}
        <Text color={snoozed ? 'magenta' : article.read ? undefined : 'yellow'}>{snoozed ? 'z' : article.read ? ' ' : 'N'}</Text>{' '}
        <Text dimColor>{shortDate(article.publishedAt, now)}</Text> {feedTitle !== undefined && <Text color="cyan">{fit(feedTitle, FEED_WIDTH)} </Text>}
        {(article.title || '(untitled)').replace(/\s+/g, ' ')}
      </Text>
    </Box>
  );
}

/** The articles of the selected feed (or of all, with a feed column), newest first. */
export function ArticleColumn({
  title,
  articles,
  feedTitles,
  selectedIndex,
  start,
  active,
  width,
  height,
  emptyText,
  more,
}: {
  title: string;
  articles: Article[];
  /** Set when several feeds are shown: each row names its feed. */
  feedTitles?: Map<number, string>;
  selectedIndex: number;
  start: number;
  active: boolean;
  width: number;
  height: number;
  emptyText: string;
  more: boolean;
}): React.JSX.Element {
  const rows = Math.max(0, height - 1);
  const now = new Date();
  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      <Box height={1}>
        <Text bold={active} color={active ? 'cyan' : undefined} wrap="truncate-end">
          {title}
        </Text>
      </Box>
      <Box height={rows} flexDirection="column" overflowY="hidden">
        {/* Inside the rows' box: beside the title it took the title's row ("no articless"). */}
        {articles.length === 0 && (
          <Text dimColor wrap="truncate-end">
            {emptyText}
          </Text>
        )}
        {articles.slice(start, start + rows).map((article, offset) => (
          <ArticleRow
            key={article.id}
            article={article}
            feedTitle={feedTitles ? (feedTitles.get(article.feedId) ?? String(article.feedId)) : undefined}
            selected={start + offset === selectedIndex}
            active={active}
            width={width}
            now={now}
          />
        ))}
        {more && articles.length > 0 && articles.length - start < rows && <Text dimColor> … older articles load as you scroll</Text>}
      </Box>
    </Box>
  );
}
