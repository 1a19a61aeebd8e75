import type {ArticlePage, DiscoveredFeed, Feed, List} from '../../feeds/types.js';
import {clip, formatDate, formatTable} from '../../text/table.js';
import {toTerminalLine} from '../../text/terminal-safe.js';

// Titles are cut so a row fits a terminal; --json has them whole.
const TITLE_WIDTH = 60;

export function formatFeeds(feeds: Feed[]): string {
  if (feeds.length === 0) return 'no feeds yet · add one with `workbench feeds add <url>`\n';
  const rows = feeds.map((feed) => [
    String(feed.id),
    String(feed.unreadCount),
    feed.fetchStatus,
    feed.lastSuccessAt ? formatDate(feed.lastSuccessAt) : '-',
    clip(feed.title || feed.url, TITLE_WIDTH),
    feed.url,
  ]);
  const table = formatTable(['ID', 'UNREAD', 'STATUS', 'LAST OK', 'TITLE', 'URL'], rows);
  const errors = feeds.filter((feed) => feed.lastError).map((feed) => `feed ${feed.id}: ${clip(feed.lastError!, 200)}\n`);
  return table + (errors.length ? '\n' + errors.join('') : '');
}

export function formatArticles(page: ArticlePage, feeds: Feed[]): string {
  if (page.articles.length === 0) return 'no articles\n';
  const titles = new Map(feeds.map((feed) => [feed.id, feed.title || feed.url]));
  const rows = page.articles.map((article) => [
    String(article.id),
    article.read ? ' ' : 'N',
    article.publishedAt ? formatDate(article.publishedAt) : '-',
    clip(titles.get(article.feedId) ?? String(article.feedId), 24),
    clip(article.title || '(untitled)', TITLE_WIDTH),
  ]);
  const table = formatTable(['ID', 'N', 'DATE', 'FEED', 'TITLE'], rows);
  const more = page.nextCursor ? `\nmore: --before ${page.nextCursor.before} --before-id ${page.nextCursor.before_id}\n` : '';
  return table + more;
}

export function formatDiscovered(feeds: DiscoveredFeed[]): string {
  if (feeds.length === 0) return 'no feed found at that address\n';
  return formatTable(
    ['FORMAT', 'TITLE', 'URL'],
    feeds.map((feed) => [feed.format ?? '?', clip(feed.title ?? '', TITLE_WIDTH), feed.url]),
  );
}

export function formatLists(lists: List[]): string {
  if (lists.length === 0) return 'no lists yet · create one with `workbench lists create <title>`\n';
  return formatTable(
    ['ID', 'VISIBILITY', 'ITEMS', 'TITLE', 'RSS'],
    lists.map((list) => [String(list.id), list.visibility, String(list.itemCount), clip(list.title, TITLE_WIDTH), list.rssUrl ?? '-']),
  );
}

export function formatList(list: List): string {
  return (
    toTerminalLine(`list ${list.id} "${list.title}" · ${list.visibility} · ${list.itemCount} item${list.itemCount === 1 ? '' : 's'}${list.rssUrl ? ` · ${list.rssUrl}` : ''}`) +
    '\n'
  );
}

export function formatImport(result: {added: number; skipped: number; failed: {url: string; error: string}[]}): string {
  const head = `imported: ${result.added} added, ${result.skipped} already subscribed, ${result.failed.length} failed\n`;
  return head + result.failed.map((failure) => `  ${clip(failure.url, 2000)}: ${clip(failure.error, 160)}\n`).join('');
}
