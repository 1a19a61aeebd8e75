import React, {useMemo, useRef} from 'react';
import {Box, Text} from 'ink';
import {usePorts} from '../../contexts/PortsContext.js';
import {listWindowStart} from '../../layouts/listWindow.js';
import {FilterInput} from '../../components/FilterInput.js';
import {MessageLine, type PaneMessage} from '../../components/MessageLine.js';
import type {PaneDefinition, PaneProps} from '../types.js';
import {ALL_FEEDS, FeedColumn} from './FeedColumn.js';
import {ArticleColumn} from './ArticleColumn.js';
import {ArticleReader, readerBodyRows} from './ArticleReader.js';
import {ListPicker} from './ListPicker.js';
import {SnoozePrompt} from './SnoozePrompt.js';
import {ConfirmLine, PromptLine} from './LinePrompt.js';
import {FeedChoicePicker} from './FeedChoicePicker.js';
import {Command} from '../../key/keyBindings.js';
import {keyLine} from '../../key/keyTable.js';
import {IngestorView} from './IngestorView.js';
import {GatewayView} from './GatewayView.js';
import {useFeeds} from './useFeeds.js';
import {useFeedKeys} from './useFeedKeys.js';
import {enclosuresOf} from '../../../feeds/enclosure-text.js';

const FEED_COLUMN = {min: 22, max: 40, share: 0.3};
// Below this pane height the reader's header shrinks to three lines (and one for an enclosure).
const BRIEF_HEADER_BELOW = 24;
// A podcast episode with many media files keeps the reader's rows for its text.
const MAX_ENCLOSURE_ROWS = 4;
// The enclosure keys are in the reader's key line only when the article has enclosures to act on.
const ENCLOSURE_KEYS = [Command.FEEDS_OPEN_ENCLOSURE, Command.FEEDS_COPY_ENCLOSURE, Command.FEEDS_NEXT_ENCLOSURE];

/**
 * The Feeds pane, newsboat-like: feeds with unread counts, the selected feed's articles, and a
 * reader view. Its state and actions are useFeeds' (every call through the feeds port's reader,
 * the ReaderService the CLI uses too), its keys useFeedKeys'; this is the layout.
 */
function FeedsPane({focused, width, height, compact}: PaneProps): React.JSX.Element {
  const {feeds: port, gateway: gatewayPort} = usePorts();
  const feeds = useFeeds({port, visible: height > 0, focused});
  const {data, reading, overlay, load, textModule, feedsById, column, feedList, feedIndex, selectedFeed, articles, articleIndex, articleFilter} = feeds;
  const feedStart = useRef(0);
  const articleStart = useRef(0);

  const openArticle = load.state === 'ready' ? load.article : undefined;
  const chosenEnclosure = feeds.enclosures.chosenIn(openArticle);
  const view = useMemo(
    () =>
      load.state === 'ready' && textModule
        ? textModule.articleView(load.article, feedsById.get(load.article.feedId), width, {
            brief: height < BRIEF_HEADER_BELOW,
            maxEnclosures: MAX_ENCLOSURE_ROWS,
            chosenEnclosure,
          })
        : {header: [], body: [], enclosureRow: undefined},
    [load, textModule, feedsById, width, height, chosenEnclosure],
  );
  const enclosureCount = openArticle ? enclosuresOf(openArticle).length : 0;

  const messages: PaneMessage[] = [];
  for (const error of [feeds.openError, data.feedsError, data.articlesError]) if (error) messages.push({kind: 'error', text: error});
  if (feeds.message) messages.push(feeds.message);
  // The selected feed's last fetch error, across the pane: the column is too narrow for it.
  if (!reading && selectedFeed?.lastError) messages.push({kind: 'error', text: `${selectedFeed.title}: ${selectedFeed.lastError}`});
  // The gateway view shows its own lines; the reader's stay for when it is closed.
  const shownMessages = feeds.side ? [] : messages.slice(0, 2);
  const promptOpen = overlay?.kind === 'snooze' || overlay?.kind === 'add' || overlay?.kind === 'confirm';
  const filter = column === 'feeds' ? feeds.feedFilter : articleFilter;
  const filterShown = !reading && !feeds.side;
  const topRows = (promptOpen ? 1 : 0) + (filterShown && (filter.editing || filter.text) ? 1 : 0) + shownMessages.length;
  const keyLineRows = height >= 8 ? 1 : 0;
  const bodyRows = Math.max(0, height - topRows - keyLineRows);
  // What a scroll key needs of the layout, as the last frame drew it.
  const page = useRef({rows: 0, maxScroll: 0});
  page.current.rows = readerBodyRows(view.header.length, bodyRows);
  page.current.maxScroll = Math.max(0, view.body.length - page.current.rows);
  useFeedKeys(feeds, {focused, readerPage: () => page.current});

  const top = (
    <>
      {overlay?.kind === 'snooze' && <SnoozePrompt state={feeds.prompt.state} width={width} />}
      {overlay?.kind === 'add' && (
        <PromptLine
          label="add feed:"
          hint={keyLine('global', 'prompt', {hints: {[Command.INPUT_ACCEPT]: "subscribe (a page's feeds are found)"}})}
          state={feeds.prompt.state}
          width={width}
        />
      )}
      {overlay?.kind === 'confirm' && <ConfirmLine question={overlay.question} width={width} />}
      {filterShown && <FilterInput filter={filter} width={width} />}
      {shownMessages.map((line, index) => (
        <MessageLine key={index} message={line} width={width} />
      ))}
    </>
  );
  const keyLineRow = keyLineRows > 0 && (
    <Box height={1} width={width}>
      <Text dimColor wrap="truncate-end">
        {feeds.side
          ? keyLine('feeds', feeds.side)
          : reading
            ? keyLine('feeds', 'reader', {without: enclosureCount > 1 ? [] : enclosureCount === 1 ? [Command.FEEDS_NEXT_ENCLOSURE] : ENCLOSURE_KEYS})
            : keyLine('feeds', 'list')}
      </Text>
    </Box>
  );

  let body: React.JSX.Element;
  if (feeds.side === 'gateway') {
    body = <GatewayView port={gatewayPort} focused={focused} width={width} height={bodyRows} onClose={feeds.closeSide} />;
  } else if (feeds.side === 'ingestors') {
    body = <IngestorView port={port} reader={feeds.reader} focused={focused} width={width} height={bodyRows} onClose={feeds.closeSide} />;
  } else if (overlay?.kind === 'choices') {
    body = (
      <FeedChoicePicker
        page={overlay.page}
        choices={overlay.choices}
        focused={focused}
        width={width}
        height={bodyRows}
        onPick={(choice) => void feeds.subscribe(choice.url)}
        onClose={feeds.closeOverlay}
      />
    );
  } else if (overlay?.kind === 'lists' && feeds.reader) {
    body = (
      <ListPicker
        reader={feeds.reader}
        articleId={overlay.article.id}
        articleTitle={overlay.article.title || '(untitled)'}
        focused={focused}
        width={width}
        height={bodyRows}
        onClose={feeds.closeOverlay}
        onDone={(outcome) => (outcome.ok ? feeds.done(outcome.text) : feeds.say({kind: 'error', text: outcome.text}))}
      />
    );
  } else if (reading) {
    const clamped = Math.max(0, Math.min(feeds.scroll, page.current.maxScroll));
    body = (
      <ArticleReader
        load={load}
        header={view.header}
        body={view.body}
        scroll={clamped}
        width={width}
        height={bodyRows}
        markedRow={enclosureCount > 1 ? view.enclosureRow : undefined}
      />
    );
  } else {
    const feedWidth = compact ? width : Math.min(FEED_COLUMN.max, Math.max(FEED_COLUMN.min, Math.floor(width * FEED_COLUMN.share)));
    const articleWidth = compact ? width : Math.max(0, width - feedWidth - 1);
    feedStart.current = listWindowStart(feedIndex, feedList.length, Math.max(1, bodyRows - 1), feedStart.current);
    articleStart.current = listWindowStart(articleIndex, articles.length, Math.max(1, bodyRows - 1), articleStart.current);
    const feedsEmpty =
      data.feeds === undefined
        ? feeds.openError || data.feedsError
          ? ''
          : 'loading…'
        : data.feeds.length === 0
          ? 'no feeds yet · press a to add one (a feed or a page that links one)'
          : '';
    const articlesEmpty = data.articles === undefined ? (data.articlesError ? '' : 'loading…') : articleFilter.text ? 'no article matches the filter' : 'no articles';
    const feedTitle = selectedFeed ? `${selectedFeed.title}${selectedFeed.unread ? ` · ${selectedFeed.unread} unread` : ''}` : 'Articles';
    const feedColumn = (
      <FeedColumn
        entries={feedList}
        selectedIndex={feedIndex}
        start={feedStart.current}
        active={focused && column === 'feeds'}
        width={feedWidth}
        height={bodyRows}
        emptyText={feedsEmpty}
      />
    );
    const articleColumn = (
      <ArticleColumn
        title={feedTitle + (articleFilter.text && column !== 'articles' ? ` · /${articleFilter.text}` : '')}
        articles={articles}
        feedTitles={selectedFeed?.id === ALL_FEEDS ? new Map(feeds.allEntries.map((entry) => [entry.id, entry.title])) : undefined}
        selectedIndex={articleIndex}
        start={articleStart.current}
        active={focused && column === 'articles'}
        width={articleWidth}
        height={bodyRows}
        emptyText={articlesEmpty}
        more={data.more}
      />
    );
    body = compact ? (
      column === 'feeds' ? (
        feedColumn
      ) : (
        articleColumn
      )
    ) : (
      <Box height={bodyRows} flexDirection="row">
        {feedColumn}
        <Box width={articleWidth + 1} height={bodyRows} borderStyle="single" borderColor="gray" borderTop={false} borderRight={false} borderBottom={false} flexShrink={0}>
          {articleColumn}
        </Box>
      </Box>
    );
  }

  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      {top}
      <Box width={width} height={bodyRows} flexDirection="column" overflowY="hidden">
        {body}
      </Box>
      {keyLineRow}
    </Box>
  );
}

export const feedsPane: PaneDefinition = {
  id: 'feeds',
  title: 'Feeds',
  Component: FeedsPane,
};
