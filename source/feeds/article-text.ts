import type {Enclosure, Feed, FullArticle} from './types.js';
import {describeEnclosure, enclosuresOf} from './enclosure-text.js';
import {htmlToPage} from '../text/html-page.js';
import {toTerminalLine} from '../text/terminal-safe.js';
import {formatDate} from '../text/table.js';

/** Plain text of an article's HTML, wrapped at `width` columns (a terminal reader's view), safe for a terminal. */
export function htmlText(html: string, width = 80): string {
  return htmlToPage(html, width).split('\n').map(toTerminalLine).join('\n');
}

/** How articleView lays out the header. */
export interface ArticleViewOptions {
  /** A short screen: title, one line of facts, the link, the chosen enclosure. */
  brief?: boolean;
  /** At most this many enclosure lines (a window holding the chosen one, then "+N more"); all when absent. */
  maxEnclosures?: number;
  /** Which enclosure the reader acts on (the TUI's `E`); the first when absent. */
  chosenEnclosure?: number;
}

/** The reader view: header fields, the body as text, and which header row is the chosen enclosure's (for the TUI to mark). */
export interface ArticleView {
  header: string[];
  body: string[];
  enclosureRow?: number;
}

/** The reader view of an article: a header of fields, then its content (or summary) as text. */
export function articleView(article: FullArticle, feed: Pick<Feed, 'title'> | undefined, width = 80, options: ArticleViewOptions = {}): ArticleView {
  const html = article.content || article.summary || '';
  const body = html.trim() ? htmlText(html, width).split('\n') : ['(no content: the feed gives only a title; see the link)'];
  const enclosures = enclosuresOf(article);
  const chosen = Math.max(0, Math.min(enclosures.length - 1, options.chosenEnclosure ?? 0));
  if (options.brief) {
    // A short screen keeps its rows for the text: title, one line of facts, the link, one enclosure.
    const facts = [
      feed?.title,
      article.author,
      article.publishedAt ? formatDate(article.publishedAt) : null,
      article.snoozedUntil ? `snoozed until ${formatDate(article.snoozedUntil)}` : null,
    ];
    const header = [article.title || '(untitled)', facts.filter(Boolean).join(' · '), ...(article.link ? [article.link] : [])];
    const enclosureRow = enclosures.length ? header.length : undefined;
    if (enclosures.length) header.push(...enclosureLine(enclosures, chosen));
    return {header: header.map(toTerminalLine), body, enclosureRow};
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
  let enclosureRow: number | undefined;
  if (enclosures.length === 1) {
    enclosureRow = header.length;
    header.push(...field('Enclosure', describeEnclosure(enclosures[0]!)));
  } else if (enclosures.length > 1) {
    // A window of at most maxEnclosures lines that holds the chosen one.
    const shown = Math.min(enclosures.length, options.maxEnclosures ?? enclosures.length);
    const start = Math.max(0, Math.min(chosen - shown + 1, enclosures.length - shown));
    for (let index = start; index < start + shown; index++) {
      if (index === chosen) enclosureRow = header.length;
      header.push(...field(`Enclosure ${index + 1}`, describeEnclosure(enclosures[index]!)));
    }
    const hidden = enclosures.length - shown;
    if (hidden) header.push(`${' '.repeat(NAME_WIDTH)}+${hidden} more enclosure${hidden === 1 ? '' : 's'} (${enclosures.length} in all)`);
  }
  return {header: header.map(toTerminalLine), body, enclosureRow};
}

// "Enclosure 2/3: URL (…)" — the brief header's one line for the chosen enclosure.
function enclosureLine(enclosures: Enclosure[], chosen: number): string[] {
  const name = enclosures.length === 1 ? 'Enclosure' : `Enclosure ${chosen + 1}/${enclosures.length}`;
  return [`${name}: ${describeEnclosure(enclosures[chosen]!)}`];
}

const NAME_WIDTH = 9;

// "Name:" padded so the values line up; a longer name ("Enclosure 12:") keeps a space after it.
function field(name: string, value: string | null | undefined): string[] {
  return value ? [`${(name + ':').padEnd(Math.max(NAME_WIDTH, name.length + 2))}${value}`] : [];
}
