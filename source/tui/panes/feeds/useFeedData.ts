import {useEffect, useRef} from 'react';
import type {ReaderService} from '../../../feeds/contracts.js';
import type {Article, ArticleQuery, Feed} from '../../../feeds/types.js';
import {useWatched} from '../../hooks/useWatched.js';
import {shownArticle, shownFeed} from '../../text/shown.js';
import type {FeedsPort} from '../../ports/feeds.js';
import {ALL_FEEDS} from './FeedColumn.js';

const PAGE_SIZE = 100;

export interface FeedData {
  feeds?: Feed[];
  feedsError?: string;
  articles?: Article[];
  /** Older articles exist beyond those loaded. */
  more: boolean;
  articlesError?: string;
  /** Loads one more page of older articles (scrolling past the end). */
  loadMore(): void;
  /** Polls both now: after an action. */
  refresh(): void;
  /** Shows an article as the reader just answered for it, until the next poll (which knows it). */
  showArticle(article: Article): void;
}

/** Feeds and the selected feed's articles (their text terminal-safe), kept current by the port; as many pages as the user has scrolled through. */
export function useFeedData(port: FeedsPort, reader: ReaderService | undefined, feedId: number, enabled: boolean): FeedData {
  const pages = useRef(1);
  // Declared before the watching below so a new feed starts from one page again.
  useEffect(() => {
    pages.current = 1;
  }, [feedId]);

  // Titles, URLs and errors come from feeds: made terminal-safe here, where they enter the pane.
  const feeds = useWatched(async () => (await reader!.listFeeds()).map(shownFeed), port.watch, [port, reader], enabled && reader !== undefined);
  const articles = useWatched(
    async () => {
      const query: ArticleQuery = feedId === ALL_FEEDS ? {limit: PAGE_SIZE} : {feed_id: feedId, limit: PAGE_SIZE};
      let page = await reader!.listArticles(query);
      const all = [...page.articles];
      let loaded = 1;
      for (; loaded < pages.current && page.nextCursor; loaded++) {
        page = await reader!.listArticles({...query, before: page.nextCursor.before, before_id: page.nextCursor.before_id});
        all.push(...page.articles);
      }
      const seen = new Set<number>();
      return {feedId, articles: all.filter((article) => !seen.has(article.id) && seen.add(article.id)).map(shownArticle), more: page.nextCursor !== null, pages: loaded};
    },
    port.watch,
    [port, reader, feedId],
    enabled && reader !== undefined,
  );

  // The render right after another feed is selected still holds the last feed's answer: not shown as this one's.
  const current = articles.data?.feedId === feedId ? articles.data : undefined;
  return {
    feeds: feeds.data,
    feedsError: feeds.error,
    articles: current?.articles,
    more: current?.more ?? false,
    articlesError: articles.error,
    loadMore: () => {
      // A page asked for and not yet here: holding ↓ at the end must not ask for ten.
      if (!articles.data?.more || articles.data.pages < pages.current) return;
      pages.current += 1;
      articles.refresh();
    },
    refresh: () => {
      feeds.refresh();
      articles.refresh();
    },
    showArticle: (article) => {
      const shown = shownArticle(article);
      articles.mutate((data) => ({...data, articles: data.articles.map((each) => (each.id === shown.id ? shown : each))}));
    },
  };
}
