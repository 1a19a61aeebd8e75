import {WorkbenchError} from '../../core/errors.js';
import {findFeedRow, findFullArticle, findListRow, pageArticles, setArticleRead, setArticleSnooze} from '../store/index.js';
import type {ArticlePage, ArticleQuery, FullArticle} from '../types.js';
import type {ReaderContext} from './context.js';
import {name, pageCursor, pageSize, positiveId, readFlag, snoozeUntil} from './validate.js';

/** A page of articles, newest first, filtered; nextCursor continues it, null on the last page. */
export async function listArticles(context: ReaderContext, query: ArticleQuery): Promise<ArticlePage> {
  const {store} = context;
  const limit = pageSize(query.limit);
  const cursor = pageCursor(query.before, query.before_id);
  const feedId = query.feed_id === undefined ? undefined : positiveId(query.feed_id, 'feed_id');
  const listId = query.list_id === undefined ? undefined : positiveId(query.list_id, 'list_id');
  const category = query.category === undefined ? undefined : name(query.category, 'category');
  if (query.unread !== undefined && typeof query.unread !== 'boolean') throw new WorkbenchError('invalid_argument', 'unread must be true or false');
  if (feedId !== undefined && !(await findFeedRow(store.db, feedId))) throw new WorkbenchError('not_found', `no feed ${feedId}`);
  if (listId !== undefined && !(await findListRow(store.db, listId))) throw new WorkbenchError('not_found', `no list ${listId}`);
  return pageArticles(store.db, store.dialect, {
    feedId,
    listId,
    category,
    unreadAt: query.unread === true ? context.nowMs() : undefined,
    readOnly: query.unread === false,
    cursor,
    limit,
  });
}

export async function getArticle(context: ReaderContext, id: number): Promise<FullArticle> {
  const article = await findFullArticle(context.store.db, positiveId(id, 'article id'));
  if (!article) throw new WorkbenchError('not_found', `no article ${id}`);
  return article;
}

export async function setRead(context: ReaderContext, id: number, read: boolean): Promise<FullArticle> {
  const flag = readFlag(read);
  if (!(await setArticleRead(context.store.db, context.store.dialect, positiveId(id, 'article id'), flag))) throw new WorkbenchError('not_found', `no article ${id}`);
  return getArticle(context, id);
}

/** Hides an unread article from the unread list until `until`; null brings it back now. */
export async function snooze(context: ReaderContext, id: number, until: string | null): Promise<FullArticle> {
  const untilMs = until === null ? null : snoozeUntil(until, context.nowMs());
  if (!(await setArticleSnooze(context.store.db, positiveId(id, 'article id'), untilMs))) throw new WorkbenchError('not_found', `no article ${id}`);
  return getArticle(context, id);
}
