import {useEffect, useMemo, useRef, useState} from 'react';
import type {Article, DiscoveredFeed, Feed} from '../../../feeds/types.js';
import {describeError} from '../../../core/errors.js';
import {parseUntil} from '../../../feeds/until.js';
import {formatDate} from '../../../text/table.js';
import {plural} from '../../../text/plural.js';
import {useFilterInput, matchesFilter, type FilterInputState} from '../../hooks/useFilterInput.js';
import {useKeyState} from '../../hooks/useKeyState.js';
import {useTextInput, type TextInput} from '../../hooks/useTextInput.js';
import {useTransientMessage} from '../../hooks/useTransientMessage.js';
import type {PaneMessage} from '../../components/MessageLine.js';
import type {FeedsPort} from '../../ports/feeds.js';
import {shownFeed} from '../../text/shown.js';
import {ALL_FEEDS, type FeedEntry} from './FeedColumn.js';
import type {ReaderLoad} from './ArticleReader.js';
import {openLink} from './openLink.js';
import {useFeedData} from './useFeedData.js';
import {useReader} from './useReader.js';
import {useEnclosures} from './useEnclosures.js';

export type Column = 'feeds' | 'articles';
/** `g`: the gateway's proxied feeds and channels; `i`: the ingestors. Either replaces the columns. */
export type SideView = 'gateway' | 'ingestors';
export type Overlay =
  | {kind: 'lists' | 'snooze'; article: Pick<Article, 'id' | 'title'>}
  | {kind: 'confirm'; question: string; onYes: () => void}
  | {kind: 'add'}
  | {kind: 'choices'; page: string; choices: DiscoveredFeed[]}
  | undefined;

/** A read state `r` asked for: its write done (`settled`), then seen in a frame (`confirmed`). */
interface ReadAsked {
  read: boolean;
  settled: boolean;
  confirmed: boolean;
}

export type ArticleTextModule = typeof import('../../../feeds/article-text.js');

function feedEntries(feeds: Feed[] | undefined): FeedEntry[] {
  if (!feeds) return [];
  const unread = feeds.reduce((sum, feed) => sum + feed.unreadCount, 0);
  return [
    {id: ALL_FEEDS, title: 'All articles', unread},
    ...feeds.map((feed) => ({id: feed.id, title: feed.title || feed.url, unread: feed.unreadCount, status: feed.fetchStatus, lastError: feed.lastError})),
  ];
}

/**
 * The Feeds pane's state and actions, each action one call of the feeds port's ReaderService (the
 * one the CLI uses) and one line of outcome. What the last frame shows is the fields; what key
 * handlers act on is the `…Now()` getters: keys come faster than frames, and a key after a move
 * acts on the feed or article the move reached.
 */
export function useFeeds({port, visible, focused}: {port: FeedsPort; visible: boolean; focused: boolean}) {
  const {reader, error: openError} = useReader(port, visible);
  const [column, columnNow, setColumn] = useKeyState<Column>('feeds');
  const [selectedFeedId, feedIdNow, setSelectedFeedId] = useKeyState(ALL_FEEDS);
  const [selectedArticleId, articleIdNow, setSelectedArticleId] = useKeyState<number | undefined>(undefined);
  const [overlay, overlayNow, setOverlay] = useKeyState<Overlay>(undefined);
  const [side, sideNow, setSide] = useKeyState<SideView | undefined>(undefined);
  // The reader view: which article, its load state and how far it is scrolled.
  const [openId, openIdNow, setOpenId] = useKeyState<number | undefined>(undefined);
  const [load, loadNow, setLoad] = useKeyState<ReaderLoad>({state: 'loading'});
  const [scroll, setScroll] = useState(0);
  const [textModule, setTextModule] = useState<ArticleTextModule>();
  const [message, setMessage] = useTransientMessage();
  const opening = useRef<number | undefined>(undefined);
  const reading = openId !== undefined;

  // Each filter's keys go to it only while it is being edited (its own ref says so).
  const feedFilter = useFilterInput(focused);
  const articleFilter = useFilterInput(focused);
  // The text of the add and snooze prompts, here so that keys after `a` or `z` in one read type into it.
  const prompt = useTextInput((text) => submitPrompt(text.trim()), {singleLine: true});

  const data = useFeedData(port, reader, selectedFeedId, visible);
  const allEntries = useMemo(() => feedEntries(data.feeds), [data.feeds]);
  const feedList = allEntries.filter((entry) => entry.id === ALL_FEEDS || matchesFilter(feedFilter.text, entry.title));
  const feedIndex = Math.max(
    0,
    feedList.findIndex((entry) => entry.id === selectedFeedId),
  );
  const selectedFeed = feedList[feedIndex];
  const feedsById = useMemo(() => new Map((data.feeds ?? []).map((feed) => [feed.id, feed])), [data.feeds]);
  const articles = (data.articles ?? []).filter((article) => matchesFilter(articleFilter.text, article.title, article.author ?? undefined, ...article.categories));
  const articleIndex = Math.max(
    0,
    articles.findIndex((article) => article.id === selectedArticleId),
  );

  // A feed that went away (filtered out or removed) hands the selection to what is shown.
  useEffect(() => {
    if (selectedFeed && selectedFeed.id !== selectedFeedId) setSelectedFeedId(selectedFeed.id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedFeed, selectedFeedId]);

  const feedNow = (): FeedEntry | undefined => feedList.find((entry) => entry.id === feedIdNow()) ?? feedList[0];
  // The articles shown are the selected feed's; after a move to another feed, none are loaded yet.
  const articlesNow = () => (feedIdNow() === selectedFeedId ? articles : []);
  const articleNow = (): Article | undefined => {
    const list = articlesNow();
    return list.find((article) => article.id === articleIdNow()) ?? list[0];
  };

  const fail = (what: string, error: unknown) => setMessage({kind: 'error', text: `${what}: ${describeError(error)}`});
  const done = (text: string) => {
    setMessage({kind: 'info', text});
    data.refresh();
  };

  // --- moves, from the selection as the last key left it ---

  const moveFeed = (step: number) => {
    const index = Math.max(
      0,
      feedList.findIndex((entry) => entry.id === feedIdNow()),
    );
    const next = feedList[Math.max(0, Math.min(feedList.length - 1, index + step))];
    if (next) setSelectedFeedId(next.id);
    // Another feed's articles start from the top.
    setSelectedArticleId(undefined);
  };
  const moveArticle = (step: number) => {
    const list = articlesNow();
    const index = Math.max(
      0,
      list.findIndex((article) => article.id === articleIdNow()),
    );
    if (index + step >= list.length - 1) data.loadMore();
    const next = list[Math.max(0, Math.min(list.length - 1, index + step))];
    if (next) setSelectedArticleId(next.id);
  };

  // --- read state ---

  // What `r` set last: a second `r` toggles what the first asked for, not what a frame shows. A
  // frame can be older than the answer (a poll's, or the one a key's handler was made in: `rr` on a
  // loaded machine toggled twice from the old value), so the entry stays until a frame has shown
  // its value once its write is done, and goes when a later frame shows another (changed elsewhere).
  const readAsked = useRef(new Map<number, ReadAsked>());
  useEffect(() => {
    const shown = new Map((data.articles ?? []).map((article) => [article.id, article.read]));
    for (const [id, asked] of readAsked.current) {
      if (shown.get(id) === asked.read) asked.confirmed ||= asked.settled;
      else if (asked.confirmed) readAsked.current.delete(id);
    }
  }, [data.articles]);

  // --- the reader view ---

  const openArticle = async (article: Pick<Article, 'id' | 'read'>) => {
    if (!reader) return;
    opening.current = article.id;
    setOpenId(article.id);
    setSelectedArticleId(article.id);
    setScroll(0);
    setLoad({state: 'loading'});
    try {
      const module = textModule ?? (await import('../../../feeds/article-text.js'));
      setTextModule(() => module);
      let full = await reader.getArticle(article.id);
      // Opening an article reads it, as in newsboat; `r` makes it unread again.
      if (!full.read) {
        full = await reader.setRead(article.id, true);
        readAsked.current.set(article.id, {read: full.read, settled: true, confirmed: false});
        data.showArticle(full);
      }
      // `n` pressed twice: only the last article asked for is shown.
      if (opening.current === article.id) setLoad({state: 'ready', article: full});
      data.refresh();
    } catch (error) {
      if (opening.current === article.id) setLoad({state: 'failed', error: `article ${article.id}: ${describeError(error)}`});
    }
  };

  const closeReader = () => {
    opening.current = undefined;
    setOpenId(undefined);
    setLoad({state: 'loading'});
  };

  // From the article the last `n` opened, not the one the last frame showed.
  const nextUnread = () => {
    const list = articlesNow();
    const from = list.findIndex((article) => article.id === openIdNow());
    const next = list.slice(from + 1).find((article) => !article.read);
    if (next) void openArticle(next);
    else setMessage({kind: 'info', text: 'no more unread articles here'});
  };

  /** The article an action in the reader applies to: the one open, once it is loaded. */
  const openArticleNow = () => {
    const now = loadNow();
    return now.state === 'ready' && now.article.id === openIdNow() ? now.article : undefined;
  };
  const enclosures = useEnclosures(openArticleNow, setMessage);
  const showInReader = (article: ReaderLoad & {state: 'ready'}) => {
    const now = loadNow();
    if (now.state === 'ready' && now.article.id === article.article.id) setLoad(article);
  };

  // --- actions on articles ---

  // The writes of `r` go one after another in the order of the keys: two sent at once could reach
  // the reader in either order and leave the article as the first key said.
  const readWrites = useRef<Promise<unknown>>(Promise.resolve());
  const toggleRead = (article: Pick<Article, 'id' | 'read' | 'title'>): Promise<void> => {
    if (!reader) return Promise.resolve();
    const read = !(readAsked.current.get(article.id)?.read ?? article.read);
    const asked: ReadAsked = {read, settled: false, confirmed: false};
    readAsked.current.set(article.id, asked);
    const write = readWrites.current.then(() => writeRead(reader, article, asked));
    readWrites.current = write;
    return write;
  };
  const writeRead = async (open: NonNullable<typeof reader>, article: Pick<Article, 'id' | 'title'>, asked: ReadAsked) => {
    const {read} = asked;
    try {
      const updated = await open.setRead(article.id, read);
      // Shown at once; a poll that started before this answer is not shown over it.
      data.showArticle(updated);
      showInReader({state: 'ready', article: updated});
      done(`marked ${updated.read ? 'read' : 'unread'}: ${updated.title || '(untitled)'}`);
    } catch (error) {
      // Nothing changed: the frame is right again.
      if (readAsked.current.get(article.id) === asked) readAsked.current.delete(article.id);
      fail(`mark ${read ? 'read' : 'unread'} failed`, error);
    } finally {
      asked.settled = true;
    }
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
      showInReader({state: 'ready', article: updated});
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

  // --- actions on feeds ---

  const markFeedRead = async (entry: FeedEntry) => {
    if (!reader) return;
    try {
      const targets = entry.id === ALL_FEEDS ? (data.feeds ?? []).filter((feed) => feed.unreadCount > 0).map((feed) => feed.id) : [entry.id];
      let marked = 0;
      for (const id of targets) marked += (await reader.markAllRead(id)).marked;
      // What `r` asked before is older than this: the frames speak again.
      readAsked.current.clear();
      done(`${entry.title}: ${plural(marked, 'article')} marked read`);
    } catch (error) {
      fail(`mark ${entry.title} read failed`, error);
    }
  };

  // `m` on "All articles" marks every feed: asked first, as newsboat's confirm-mark-all-feeds-read.
  const askMarkFeedRead = (entry: FeedEntry) => {
    if (entry.id !== ALL_FEEDS) return void markFeedRead(entry);
    if (entry.unread === 0) return setMessage({kind: 'info', text: 'no unread articles'});
    setOverlay({kind: 'confirm', question: `mark all ${plural(entry.unread, 'article')} in every feed read?`, onYes: () => void markFeedRead(entry)});
  };

  // "All articles" refreshes the feeds it shows (one gone from the store since says so).
  const refreshFeed = async (entry: FeedEntry) => {
    if (!reader) return;
    setMessage({kind: 'info', text: `refreshing ${entry.title}…`});
    const ids = entry.id === ALL_FEEDS ? (data.feeds ?? []).map((feed) => feed.id) : [entry.id];
    let outcomes;
    try {
      outcomes = await reader.refreshAll(ids);
    } catch (error) {
      return fail(`refreshing ${entry.title} failed`, error);
    }
    const failures = outcomes.flatMap((outcome) => ('error' in outcome ? [`${feedsById.get(outcome.id)?.title ?? outcome.id}: ${outcome.error}`] : []));
    const fresh = outcomes.reduce((sum, outcome) => sum + ('newArticles' in outcome ? outcome.newArticles : 0), 0);
    if (failures.length) {
      setMessage({kind: 'error', text: `refresh failed for ${failures.join('; ')}`});
      data.refresh();
    } else done(`${entry.title}: ${plural(fresh, 'new article')}`);
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

  // --- overlays: a prompt, a question, a picker ---

  const askText = (next: Overlay & {kind: 'add' | 'snooze'}) => {
    prompt.set('');
    setOverlay(next);
  };
  function submitPrompt(text: string) {
    const now = overlayNow();
    if (now?.kind === 'add') void subscribe(text);
    else if (now?.kind === 'snooze') void snooze(now.article, text || 'tomorrow');
  }
  const answer = (yes: boolean) => {
    const now = overlayNow();
    if (now?.kind !== 'confirm') return;
    setOverlay(undefined);
    if (yes) now.onYes();
    else setMessage({kind: 'info', text: 'cancelled'});
  };

  return {
    reader,
    openError,
    data,
    column,
    feedList,
    feedIndex,
    selectedFeed,
    allEntries,
    feedsById,
    articles,
    articleIndex,
    feedFilter,
    articleFilter,
    /** The filter of the column the last key chose. */
    filterNow: (): FilterInputState => (columnNow() === 'feeds' ? feedFilter : articleFilter),
    overlay,
    prompt: prompt as TextInput,
    side,
    reading,
    load,
    scroll,
    textModule,
    message,
    columnNow,
    feedNow,
    articleNow,
    overlayNow,
    sideNow,
    readingNow: () => openIdNow() !== undefined,
    openArticleNow,
    setColumn,
    moveFeed,
    moveArticle,
    openArticle,
    closeReader,
    nextUnread,
    scrollBy: (step: number, max: number) => setScroll((current) => Math.max(0, Math.min(max, current + step))),
    scrollTo: setScroll,
    toggleRead,
    askSnooze: (article: Pick<Article, 'id' | 'title'>) => askText({kind: 'snooze', article}),
    askList: (article: Pick<Article, 'id' | 'title'>) => setOverlay({kind: 'lists', article}),
    openArticleLink,
    /** The open article's enclosures: choose, open, copy (`E`, `e`, `y`). */
    enclosures,
    askMarkFeedRead,
    refreshFeed,
    askAdd: () => askText({kind: 'add'}),
    subscribe,
    askRemoveFeed,
    answer,
    closeOverlay: () => setOverlay(undefined),
    openSide: (view: SideView) => setSide(view),
    closeSide: () => setSide(undefined),
    say: (next: PaneMessage | undefined) => setMessage(next),
    done,
  };
}

export type FeedsController = ReturnType<typeof useFeeds>;
