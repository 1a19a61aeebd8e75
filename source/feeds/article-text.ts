import type {Feed, FullArticle} from './types.js';
import {htmlToPage} from '../text/html-page.js';
import {toTerminalLine} from '../text/terminal-safe.js';
import {formatDate} from '../text/table.js';

/** Plain text of an article's HTML, wrapped at `width` columns (a terminal reader's view), safe for a terminal. */
export function htmlText(html: string, width = 80): string {
  return htmlToPage(html, width).split('\n').map(toTerminalLine).join('\n');
}

/** The reader view of an article: a header of fields, then its content (or summary) as text. */
export function articleView(article: FullArticle, feed: Pick<Feed, 'title'> | undefined, width = 80, options: {brief?: boolean} = {}): {header: string[]; body: string[]} {
  const html = article.content || article.summary || '';
  const body = html.trim() ? htmlText(html, width).split('\n') : ['(no content: the feed gives only a title; see the link)'];
  if (options.brief) {
    // A short screen keeps its rows for the text: title, one line of facts, the link.
    const facts = [
      feed?.title,
      article.author,
      article.publishedAt ? formatDate(article.publishedAt) : null,
      article.snoozedUntil ? `snoozed until ${formatDate(article.snoozedUntil)}` : null,
    ];
    return {header: [article.title || '(untitled)', facts.filter(Boolean).join(' · '), ...(article.link ? [article.link] : [])].map(toTerminalLine), body};
  }
  const header = [
    article.title || '(untitled)',
    ...field('Feed', feed?.title),
    ...field('Author', article.author),
    ...field('Date', article.publishedAt ? formatDate(article.publishedAt) : null),
    ...field('Link', article.link),
    ...field('Tags', article.categories.join(', ')),
    ...field('Snoozed', article.snoozedUntil ? `until ${formatDate(article.snoozedUntil)}` : null),
  ];
  return {header: header.map(toTerminalLine), body};
}

function field(name: string, value: string | null | undefined): string[] {
  return value ? [`${(name + ':').padEnd(9)}${value}`] : [];
}
