import React, {useEffect, useMemo, useRef, useState} from 'react';
import {Box, Text} from 'ink';
import type {Article, DiscoveredFeed, Feed} from '../../feeds/types.js';
import {describeError} from '../../core/errors.js';
import {parseUntil} from '../../feeds/until.js';
import {formatDate} from '../../text/table.js';
import {plural} from '../../text/plural.js';
import {usePorts} from '../contexts/PortsContext.js';
import {useKeypress} from '../hooks/useKeypress.js';
import {useFilterInput, matchesFilter} from '../hooks/useFilterInput.js';
import {useTransientMessage} from '../hooks/useTransientMessage.js';
import {Command, matchesCommand, type Keypress} from '../key/keyBindings.js';
import {KeyPriority} from '../key/keyPriority.js';
import {listWindowStart} from '../layouts/listWindow.js';
import {FilterInput} from '../components/FilterInput.js';
import {MessageLine, type PaneMessage} from '../components/MessageLine.js';
import {ALL_FEEDS, FeedColumn, type FeedEntry} from './feeds/FeedColumn.js';
import {ArticleColumn} from './feeds/ArticleColumn.js';
import {ArticleReader, readerBodyRows, type ReaderLoad} from './feeds/ArticleReader.js';
import {ListPicker} from './feeds/ListPicker.js';
import {SnoozePrompt} from './feeds/SnoozePrompt.js';
import {ConfirmPrompt, LinePrompt} from './feeds/LinePrompt.js';
import {FeedChoicePicker} from './feeds/FeedChoicePicker.js';
import {openLink} from './feeds/openLink.js';
import {shownFeed} from '../text/shown.js';
import {FeedKey, GATEWAY_KEY_LINE, INGESTOR_KEY_LINE, isFeedKey, LIST_KEY_LINE, READER_KEY_LINE} from './feeds/feedKeys.js';
import {IngestorView} from './feeds/IngestorView.js';
import {GatewayView} from './feeds/GatewayView.js';
import {useReader} from './feeds/useReader.js';
import {useFeedData} from './feeds/useFeedData.js';
import type {PaneDefinition, PaneProps} from './types.js';

type Column = 'feeds' | 'articles';
type Overlay =
  | {kind: 'lists' | 'snooze'; article: Pick<Article, 'id' | 'title'>}
  | {kind: 'confirm'; question: string; onYes: () => void}
  | {kind: 'add'}
  | {kind: 'choices'; page: string; choices: DiscoveredFeed[]}
  | undefined;
type ArticleTextModule = typeof import('../../feeds/article-text.js');

const FEED_COLUMN = {min: 22, max: 40, share: 0.3};
// Below this pane height the reader's header shrinks to three lines.
const BRIEF_HEADER_BELOW = 24;

function feedEntries(feeds: Feed[] | undefined): FeedEntry[] {
  if (!feeds) return [];
  const unread = feeds.reduce((sum, feed) => sum + feed.unreadCount, 0);
  return [
    {id: ALL_FEEDS, title: 'All articles', unread},
    ...feeds.map((feed) => ({id: feed.id, title: feed.title || feed.url, unread: feed.unreadCount, status: feed.fetchStatus, lastError: feed.lastError})),
  ];
}

/**
 * The Feeds pane, newsboat-like: feeds with unread counts, the selected feed's articles, and a
 * reader view. Every call goes through the feeds port's reader, the ReaderService the CLI uses too.
 */
function FeedsPane({focused, width, height, compact}: PaneProps): React.JSX.Element {
  const {feeds: port, gateway: gatewayPort} = usePorts();
  const visible = height > 0;
  const {reader, error: openError} = useReader(port, visible);
  const [column, setColumn] = useState<Column>('feeds');
  const [selectedFeedId, setSelectedFeedId] = useState(ALL_FEEDS);
  const [selectedArticleId, setSelectedArticleId] = useState<number>();
  const [overlay, setOverlay] = useState<Overlay>();
  const [message, setMessage] = useTransientMessage();
  // The reader view: which article, its load state and how far it is scrolled.
  const [openId, setOpenId] = useState<number>();
  const [load, setLoad] = useState<ReaderLoad>({state: 'loading'});
  const [scroll, setScroll] = useState(0);
  const [textModule, setTextModule] = useState<ArticleTextModule>();
  const feedStart = useRef(0);
  const articleStart = useRef(0);
  const opening = useRef<number | undefined>(undefined);
  const reading = openId !== undefined;
  // `g`: the gateway's proxied feeds and channels instead of the reader's columns (the reader view is not open then).
  const [gatewayOpen, setGatewayOpen] = useState(false);
  // `i`: the ingestors (social networks into feeds), their status, and a test cycle with reasons.
  const [ingestorsOpen, setIngestorsOpen] = useState(false);
  const sideView = gatewayOpen || ingestorsOpen;

  const feedFilter = useFilterInput(focused && !reading && column === 'feeds');
  const articleFilter = useFilterInput(focused && !reading && column === 'articles');
  const filter = column === 'feeds' ? feedFilter : articleFilter;

  const data = useFeedData(port, reader, selectedFeedId, visible);
  const allEntries = useMemo(() => feedEntries(data.feeds), [data.feeds]);
  const feedList = allEntries.filter((entry) => entry.id === ALL_FEEDS || matchesFilter(feedFilter.text, entry.title));
  const feedIndex = Math.max(
    0,
    feedList.findIndex((entry) => entry.id === selectedFeedId),
  );
  const selectedFeed = feedList[feedIndex];
  const feedsById = useMemo(() => new Map((data.feeds ?? []).map((feed) => [feed.id, feed])), [data.feeds]);

  // What r just set shows at once, until the next poll brings the reader's own answer.
  const [readOverrides, setReadOverrides] = useState<ReadonlyMap<number, boolean>>(new Map());
  useEffect(() => setReadOverrides(new Map()), [data.articles]);
  const shownArticles = useMemo(
    () => (data.articles ?? []).map((article) => (readOverrides.has(article.id) ? {...article, read: readOverrides.get(article.id)!} : article)),
    [data.articles, readOverrides],
  );
  const articles = shownArticles.filter((article) => matchesFilter(articleFilter.text, article.title, article.author ?? undefined, ...article.categories));
  const articleIndex = Math.max(
    0,
    articles.findIndex((article) => article.id === selectedArticleId),
  );
  const selectedArticle = articles[articleIndex];

  // A feed that went away (filtered out or removed) hands the selection to what is shown.
  useEffect(() => {
    if (selectedFeed && selectedFeed.id !== selectedFeedId) setSelectedFeedId(selectedFeed.id);
  }, [selectedFeed, selectedFeedId]);

  const fail = (what: string, error: unknown) => setMessage({kind: 'error', text: `${what}: ${describeError(error)}`});
  const done = (text: string) => {
    setMessage({kind: 'info', text});
    data.refresh();
  };

  // --- actions, each one call of the ReaderService and one line of outcome ---

  const openArticle = async (article: Pick<Article, 'id' | 'read'>) => {
    if (!reader) return;
    opening.current = article.id;
    setOpenId(article.id);
    setSelectedArticleId(article.id);
    setScroll(0);
    setLoad({state: 'loading'});
    try {
      const module = textModule ?? (await import('../../feeds/article-text.js'));
      setTextModule(() => module);
      let full = await reader.getArticle(article.id);
      // Opening an article reads it, as in newsboat; `r` makes it unread again.
      if (!full.read) full = await reader.setRead(article.id, true);
      // `n` pressed twice: only the last article asked for is shown.
      if (opening.current === article.id) setLoad({state: 'ready', article: full});
      data.refresh();
    } catch (error) {
      if (opening.current === article.id) setLoad({state: 'failed', error: `article ${article.id}: ${describeError(error)}`});
    }
  };

  const toggleRead = async (article: Pick<Article, 'id' | 'read' | 'title'>) => {
    if (!reader) return;
    try {
      const updated = await reader.setRead(article.id, !article.read);
      setReadOverrides((current) => new Map(current).set(updated.id, updated.read));
      if (load.state === 'ready' && load.article.id === updated.id) setLoad({state: 'ready', article: updated});
      done(`marked ${updated.read ? 'read' : 'unread'}: ${updated.title || '(untitled)'}`);
    } catch (error) {
      fail(`mark ${article.read ? 'unread' : 'read'} failed`, error);
    }
  };

  const markFeedRead = async (entry: FeedEntry) => {
    if (!reader) return;
    try {
      const targets = entry.id === ALL_FEEDS ? (data.feeds ?? []).filter((feed) => feed.unreadCount > 0).map((feed) => feed.id) : [entry.id];
      let marked = 0;
      for (const id of targets) marked += (await reader.markAllRead(id)).marked;
      done(`${entry.title}: ${plural(marked, 'article')} marked read`);
    } catch (error) {
      fail(`mark ${entry.title} read failed`, error);
    }
  };

  const refreshFeed = async (entry: FeedEntry) => {
    if (!reader) return;
    setMessage({kind: 'info', text: `refreshing ${entry.title}…`});
    const ids = entry.id === ALL_FEEDS ? (data.feeds ?? []).map((feed) => feed.id) : [entry.id];
    let fresh = 0;
    const failures: string[] = [];
    for (const id of ids) {
      try {
        fresh += (await reader.refresh(id)).newArticles;
      } catch (error) {
        failures.push(`${feedsById.get(id)?.title ?? id}: ${describeError(error)}`);
      }
    }
    if (failures.length) {
      setMessage({kind: 'error', text: `refresh failed for ${failures.join('; ')}`});
      data.refresh();
    } else done(`${entry.title}: ${plural(fresh, 'new article')}`);
  };

  const snooze = async (article: Pick<Article, 'id' | 'title'>, when: string) => {
    setOverlay(undefined);
    if (!reader) return;
    let until: string;
    try {
      until = parseUntil(when, new Date(), 'snooze');
    } catch (error) {
      setMessage({kind: 'error', text: describeError(error)});
      return;
    }
    try {
      const updated = await reader.snooze(article.id, until);
      if (load.state === 'ready' && load.article.id === updated.id) setLoad({state: 'ready', article: updated});
      done(`snoozed until ${formatDate(updated.snoozedUntil ?? until)}: ${updated.title || '(untitled)'}`);
    } catch (error) {
      fail('snooze failed', error);
    }
  };

  // `o`: the article's link in the browser; where none can be started, the link to copy.
  const openArticleLink = async (article: {link: string | null} | undefined) => {
    if (!article?.link) {
      setMessage({kind: 'error', text: 'this article has no link'});
      return;
    }
    const outcome = await openLink(article.link);
    setMessage(outcome.opened ? {kind: 'info', text: `opened in ${outcome.command}: ${article.link}`} : {kind: 'info', text: `link: ${article.link} (${outcome.reason})`});
  };

  // `m` on "All articles" marks every feed: asked first, as newsboat's confirm-mark-all-feeds-read.
  const askMarkFeedRead = (entry: FeedEntry) => {
    if (entry.id !== ALL_FEEDS) return void markFeedRead(entry);
    if (entry.unread === 0) return setMessage({kind: 'info', text: 'no unread articles'});
    setOverlay({kind: 'confirm', question: `mark all ${plural(entry.unread, 'article')} in every feed read?`, onYes: () => void markFeedRead(entry)});
  };

  const subscribe = async (url: string) => {
    setOverlay(undefined);
    if (!reader || !url) return;
    setMessage({kind: 'info', text: `looking for a feed at ${url}…`});
    try {
      const result = await reader.subscribe(url);
      if ('choices' in result) {
        setOverlay({kind: 'choices', page: url, choices: result.choices});
        setMessage(undefined);
        return;
      }
      const feed = shownFeed(result.feed);
      setSelectedFeedId(feed.id);
      setColumn('feeds');
      done(`subscribed: ${feed.title || feed.url}`);
    } catch (error) {
      fail(`adding ${url} failed`, error);
    }
  };

  const askRemoveFeed = (entry: FeedEntry) => {
    if (entry.id === ALL_FEEDS) return setMessage({kind: 'info', text: 'select a feed to remove (d)'});
    setOverlay({
      kind: 'confirm',
      question: `remove ${entry.title} and its articles?`,
      onYes: () =>
        void (async () => {
          if (!reader) return;
          try {
            await reader.unsubscribe(entry.id);
            setSelectedFeedId(ALL_FEEDS);
            done(`removed: ${entry.title}`);
          } catch (error) {
            fail(`removing ${entry.title} failed`, error);
          }
        })(),
    });
  };

  const closeReader = () => {
    opening.current = undefined;
    setOpenId(undefined);
    setLoad({state: 'loading'});
  };

  const nextUnread = () => {
    const from = articles.findIndex((article) => article.id === openId);
    const next = articles.slice(from + 1).find((article) => !article.read);
    if (next) void openArticle(next);
    else setMessage({kind: 'info', text: 'no more unread articles here'});
  };

  // --- keys ---

  // Moves start from the selection as the last key left it (keys may come faster than frames).
  const moveFeed = (step: number) => {
    setSelectedFeedId((current) => {
      const index = Math.max(
        0,
        feedList.findIndex((entry) => entry.id === current),
      );
      return feedList[Math.max(0, Math.min(feedList.length - 1, index + step))]?.id ?? current;
    });
    // Another feed's articles start from the top.
    setSelectedArticleId(undefined);
  };
  const moveArticle = (step: number) => {
    const target = articleIndex + step;
    if (target >= articles.length - 1) data.loadMore();
    setSelectedArticleId((current) => {
      const index = Math.max(
        0,
        articles.findIndex((article) => article.id === current),
      );
      return articles[Math.max(0, Math.min(articles.length - 1, index + step))]?.id ?? current;
    });
  };

  const readerWidth = width;
  const view = useMemo(
    () =>
      load.state === 'ready' && textModule
        ? textModule.articleView(load.article, feedsById.get(load.article.feedId), readerWidth, {brief: height < BRIEF_HEADER_BELOW})
        : {header: [], body: []},
    [load, textModule, feedsById, readerWidth, height],
  );

  const listKeys = (press: Keypress): boolean => {
    const move = column === 'feeds' ? moveFeed : moveArticle;
    const article = column === 'articles' ? selectedArticle : undefined;
    if (matchesCommand(Command.UP, press)) move(-1);
    else if (matchesCommand(Command.DOWN, press)) move(1);
    else if (matchesCommand(Command.PAGE_UP, press)) move(-10);
    else if (matchesCommand(Command.PAGE_DOWN, press)) move(10);
    // Tab walks feeds → articles → next pane; Shift-Tab walks back.
    else if (matchesCommand(Command.NEXT_PANE, press) && column === 'feeds') setColumn('articles');
    else if (matchesCommand(Command.PREV_PANE, press) && column === 'articles') setColumn('feeds');
    else if (press.name === 'right' && column === 'feeds') setColumn('articles');
    else if (press.name === 'left' && column === 'articles') setColumn('feeds');
    else if (matchesCommand(Command.EXPAND, press) && column === 'feeds') setColumn('articles');
    else if (matchesCommand(Command.EXPAND, press) && article) void openArticle(article);
    else if (matchesCommand(Command.FILTER, press)) filter.open();
    else if (isFeedKey('TOGGLE_READ', press) && article) void toggleRead(article);
    else if (isFeedKey('SNOOZE', press) && article) setOverlay({kind: 'snooze', article});
    else if (isFeedKey('SAVE_TO_LIST', press) && article) setOverlay({kind: 'lists', article});
    else if (isFeedKey('OPEN_LINK', press) && article) void openArticleLink(article);
    else if (isFeedKey('MARK_FEED_READ', press) && selectedFeed) askMarkFeedRead(selectedFeed);
    else if (isFeedKey('ADD_FEED', press)) setOverlay({kind: 'add'});
    else if (isFeedKey('REMOVE_FEED', press) && column === 'feeds' && selectedFeed) askRemoveFeed(selectedFeed);
    else if (isFeedKey('REFRESH_FEED', press) && selectedFeed) void refreshFeed(selectedFeed);
    else if (isFeedKey('GATEWAY', press)) setGatewayOpen(true);
    else if (isFeedKey('INGESTORS', press)) setIngestorsOpen(true);
    else if (matchesCommand(Command.BACK, press) && (filter.text || message)) {
      if (filter.text) filter.clear();
      else setMessage(undefined);
    } else return false;
    return true;
  };

  const readerKeys = (press: Keypress): boolean => {
    const rows = readerBodyRows(view.header.length, bodyRowsRef.current);
    const maxScroll = Math.max(0, view.body.length - rows);
    const scrollBy = (step: number) => setScroll((current) => Math.max(0, Math.min(maxScroll, current + step)));
    const article = load.state === 'ready' ? load.article : undefined;
    if (matchesCommand(Command.UP, press)) scrollBy(-1);
    else if (matchesCommand(Command.DOWN, press)) scrollBy(1);
    else if (matchesCommand(Command.PAGE_UP, press)) scrollBy(-rows);
    else if (matchesCommand(Command.PAGE_DOWN, press) || isFeedKey('PAGE_DOWN', press)) scrollBy(rows);
    else if (press.name === 'home') setScroll(0);
    else if (press.name === 'end') setScroll(maxScroll);
    else if (matchesCommand(Command.BACK, press) || matchesCommand(Command.QUIT, press)) closeReader();
    else if (isFeedKey('NEXT_UNREAD', press)) nextUnread();
    else if (isFeedKey('TOGGLE_READ', press) && article) void toggleRead(article);
    else if (isFeedKey('SNOOZE', press) && article) setOverlay({kind: 'snooze', article});
    else if (isFeedKey('SAVE_TO_LIST', press) && article) setOverlay({kind: 'lists', article});
    else if (isFeedKey('OPEN_LINK', press)) void openArticleLink(article);
    else return false;
    return true;
  };

  useKeypress((press) => (reading ? readerKeys(press) : listKeys(press)), {
    isActive: focused && overlay === undefined && !filter.editing && !sideView,
    priority: KeyPriority.PANE,
  });

  // --- layout ---

  const messages: PaneMessage[] = [];
  for (const error of [openError, data.feedsError, data.articlesError]) if (error) messages.push({kind: 'error', text: error});
  if (message) messages.push(message);
  // The selected feed's last fetch error, across the pane: the column is too narrow for it.
  if (!reading && selectedFeed?.lastError) messages.push({kind: 'error', text: `${selectedFeed.title}: ${selectedFeed.lastError}`});
  // The gateway view shows its own lines; the reader's stay for when it is closed.
  const shownMessages = sideView ? [] : messages.slice(0, 2);
  const promptOpen = overlay?.kind === 'snooze' || overlay?.kind === 'add' || overlay?.kind === 'confirm';
  const filterShown = !reading && !sideView;
  const topRows = (promptOpen ? 1 : 0) + (filterShown && (filter.editing || filter.text) ? 1 : 0) + shownMessages.length;
  const keyLineRows = height >= 8 ? 1 : 0;
  const bodyRows = Math.max(0, height - topRows - keyLineRows);
  const bodyRowsRef = useRef(bodyRows);
  bodyRowsRef.current = bodyRows;

  const top = (
    <>
      {overlay?.kind === 'snooze' && (
        <SnoozePrompt focused={focused} width={width} onSubmit={(text) => void snooze(overlay.article, text)} onCancel={() => setOverlay(undefined)} />
      )}
      {overlay?.kind === 'add' && (
        <LinePrompt
          label="add feed:"
          hint="enter: subscribe (a page's feeds are found) · esc cancel"
          focused={focused}
          width={width}
          onSubmit={(url) => void subscribe(url)}
          onCancel={() => setOverlay(undefined)}
        />
      )}
      {overlay?.kind === 'confirm' && (
        <ConfirmPrompt
          question={overlay.question}
          focused={focused}
          width={width}
          onAnswer={(yes) => {
            setOverlay(undefined);
            if (yes) overlay.onYes();
            else setMessage({kind: 'info', text: 'cancelled'});
          }}
        />
      )}
      {filterShown && <FilterInput filter={filter} width={width} />}
      {shownMessages.map((line, index) => (
        <MessageLine key={index} message={line} width={width} />
      ))}
    </>
  );
  const keyLine = keyLineRows > 0 && (
    <Box height={1} width={width}>
      <Text dimColor wrap="truncate-end">
        {gatewayOpen ? GATEWAY_KEY_LINE : ingestorsOpen ? INGESTOR_KEY_LINE : reading ? READER_KEY_LINE : LIST_KEY_LINE}
      </Text>
    </Box>
  );

  let body: React.JSX.Element;
  if (gatewayOpen) {
    body = <GatewayView port={gatewayPort} focused={focused} width={width} height={bodyRows} onClose={() => setGatewayOpen(false)} />;
  } else if (ingestorsOpen) {
    body = <IngestorView port={port} reader={reader} focused={focused} width={width} height={bodyRows} onClose={() => setIngestorsOpen(false)} />;
  } else if (overlay?.kind === 'choices') {
    body = (
      <FeedChoicePicker
        page={overlay.page}
        choices={overlay.choices}
        focused={focused}
        width={width}
        height={bodyRows}
        onPick={(choice) => void subscribe(choice.url)}
        onClose={() => setOverlay(undefined)}
      />
    );
  } else if (overlay?.kind === 'lists' && reader) {
    body = (
      <ListPicker
        reader={reader}
        articleId={overlay.article.id}
        articleTitle={overlay.article.title || '(untitled)'}
        focused={focused}
        width={width}
        height={bodyRows}
        onClose={() => setOverlay(undefined)}
        onDone={(outcome) => (outcome.ok ? done(outcome.text) : setMessage({kind: 'error', text: outcome.text}))}
      />
    );
  } else if (reading) {
    const rows = readerBodyRows(view.header.length, bodyRows);
    const clamped = Math.max(0, Math.min(scroll, view.body.length - rows));
    body = <ArticleReader load={load} header={view.header} body={view.body} scroll={clamped} width={readerWidth} height={bodyRows} />;
  } else {
    const feedWidth = compact ? width : Math.min(FEED_COLUMN.max, Math.max(FEED_COLUMN.min, Math.floor(width * FEED_COLUMN.share)));
    const articleWidth = compact ? width : Math.max(0, width - feedWidth - 1);
    feedStart.current = listWindowStart(feedIndex, feedList.length, Math.max(1, bodyRows - 1), feedStart.current);
    articleStart.current = listWindowStart(articleIndex, articles.length, Math.max(1, bodyRows - 1), articleStart.current);
    const feedsEmpty =
      data.feeds === undefined
        ? openError || data.feedsError
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
        feedTitles={selectedFeed?.id === ALL_FEEDS ? new Map(allEntries.map((entry) => [entry.id, entry.title])) : undefined}
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
      {keyLine}
    </Box>
  );
}

export const feedsPane: PaneDefinition = {
  id: 'feeds',
  title: 'Feeds',
  keys: [
    {command: Command.UP, description: 'previous feed or article; scroll the article up'},
    {command: Command.DOWN, description: 'next feed or article; scroll the article down'},
    {command: Command.PAGE_DOWN, description: 'a page down (space too, in the article)'},
    {command: Command.EXPAND, description: 'open the feed’s articles, or the article (marks it read)'},
    {label: FeedKey.TOGGLE_READ, description: 'toggle read/unread'},
    {label: FeedKey.MARK_FEED_READ, description: 'mark the whole feed read (on All articles: every feed, asks first)'},
    {label: FeedKey.SNOOZE, description: 'snooze the article (enter alone: tomorrow 08:00)'},
    {label: FeedKey.SAVE_TO_LIST, description: 'save the article to a list'},
    {label: FeedKey.REFRESH_FEED, description: 'refresh the selected feed now'},
    {label: FeedKey.OPEN_LINK, description: 'open the article link in the browser ($BROWSER, else xdg-open; shown when neither runs)'},
    {label: FeedKey.ADD_FEED, description: 'add a feed: its URL, or a page that links feeds'},
    {label: FeedKey.REMOVE_FEED, description: 'remove the selected feed (asks first)'},
    {label: FeedKey.NEXT_UNREAD, description: 'next unread article (in the reader)'},
    {label: FeedKey.GATEWAY, description: 'the gateway: its proxied feeds (stale ones marked !) and channels; g or esc come back'},
    {label: FeedKey.INGESTORS, description: 'the ingestors: social networks into feeds, their status and pending digests; i or esc come back'},
    {command: Command.NEXT_PANE, description: 'feeds → articles → next pane (←/→ too)'},
    {command: Command.FILTER, description: 'filter the feeds or the articles'},
    {command: Command.BACK, description: 'close the article, then clear the filter'},
    {heading: 'Gateway view (g)'},
    {command: Command.UP, description: 'previous feed or channel'},
    {command: Command.DOWN, description: 'next feed or channel'},
    {label: FeedKey.REFRESH_FEED, description: 'poll the selected feed’s origin now (needs REFRESH_TOKEN in the environment)'},
    {command: Command.BACK, description: 'back to the reader’s feeds (g too)'},
    {heading: 'Ingestors view (i)'},
    {label: FeedKey.TEST_INGESTOR, description: 'run a test cycle: kept and dropped statuses with their scores and the reasons behind them (nothing is stored)'},
    {label: FeedKey.REFRESH_FEED, description: 'run the selected ingestor’s cycle now'},
    {command: Command.BACK, description: 'back to the reader’s feeds (i too); from a test, back to the ingestors'},
  ],
  Component: FeedsPane,
};
