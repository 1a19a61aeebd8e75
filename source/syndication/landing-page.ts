import {escapeUTF8} from 'entities';
import {xmlChars} from '../feeds/xml-chars.js';
import {htmlToLine} from '../text/html-text.js';
import {representationUrl} from './links.js';
import {publishedFeed, publishedItems, type PublishedItem} from './published-items.js';
import type {FeedLinks, SyndicatedFeed} from './types.js';

/** The newest items the page lists; the feed itself has them all. */
export const LANDING_PAGE_ITEMS = 20;
const SNIPPET_CHARS = 240;

// Small and inline: the server's CSP allows no script, and the page needs none.
const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{margin-bottom:.25rem}.muted{color:#666}.stale{background:#fff4d6;border:1px solid #e0b850;padding:.5rem .75rem;border-radius:4px}
dl.urls dt{font-weight:600;margin-top:.5rem}dl.urls dd{margin:0}input{width:100%;font:14px ui-monospace,monospace;padding:.25rem}
ol{padding-left:1.25rem}li{margin:.75rem 0}time{white-space:nowrap}`;

/**
 * The page a browser gets for `/<name>`: what the feed is, a stale note when the origin failed
 * since its last good poll, the feed URLs to copy into a reader (RSS, Atom; autodiscovery links
 * in the head) and the newest items. Every text is escaped, links are http(s) only, and the page
 * runs no script.
 */
export function renderLandingPage(doc: SyndicatedFeed, links: FeedLinks): string {
  const feed = publishedFeed(doc);
  const rss = representationUrl(links.self, 'rss');
  const atom = representationUrl(links.self, 'atom');
  const items = publishedItems(doc, LANDING_PAGE_ITEMS);
  const count = doc.items.length;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text(feed.title)}</title>
<link rel="alternate" type="application/rss+xml" title="${text(feed.title)} (RSS)" href="${text(rss)}">
<link rel="alternate" type="application/atom+xml" title="${text(feed.title)} (Atom)" href="${text(atom)}">
${links.hub ? `<link rel="hub" href="${text(links.hub)}">\n` : ''}<style>${STYLE}</style>
</head>
<body>
<h1>${text(feed.title)}</h1>
${feed.description ? `<p>${text(feed.description)}</p>\n` : ''}${feed.siteUrl ? `<p class="muted">From <a href="${text(feed.siteUrl)}">${text(feed.siteUrl)}</a></p>\n` : ''}${doc.stale ? '<p class="stale">The origin of this feed could not be read at the last poll: this is its last good copy.</p>\n' : ''}<p>This is a feed. Copy one of its addresses into your feed reader:</p>
<dl class="urls">
<dt>RSS 2.0</dt><dd><input readonly value="${text(rss)}" aria-label="RSS address"></dd>
<dt>Atom 1.0</dt><dd><input readonly value="${text(atom)}" aria-label="Atom address"></dd>
</dl>
<h2>${count === 0 ? 'No items yet' : count > items.length ? `The newest ${items.length} of ${count} items` : count === 1 ? 'One item' : `${count} items`}</h2>
${items.length ? `<ol>\n${items.map(itemHtml).join('\n')}\n</ol>\n` : ''}<p class="muted">Updated <time datetime="${feed.updated.toISOString()}">${feed.updated.toUTCString()}</time></p>
</body>
</html>
`;
}

function itemHtml(item: PublishedItem): string {
  const title = item.link ? `<a href="${text(item.link)}">${text(item.title)}</a>` : text(item.title);
  const facts = [`<time datetime="${item.published.toISOString()}">${item.published.toUTCString()}</time>`, ...(item.author ? [text(item.author)] : [])];
  const snippet = item.html ? shorten(htmlToLine(item.html)) : '';
  return `<li><strong>${title}</strong><br><span class="muted">${facts.join(' · ')}</span>${snippet ? `<br>${text(snippet)}` : ''}${mediaHtml(item)}</li>`;
}

/** The item's files as links (type and size), and its categories; nothing when it has neither. */
function mediaHtml(item: PublishedItem): string {
  const files = item.enclosures.map((enclosure) => {
    const label = [enclosure.type ?? 'file', ...(enclosure.length ? [megabytes(enclosure.length)] : [])].join(', ');
    return `<a href="${text(enclosure.url)}">${text(label)}</a>`;
  });
  const lines = [...(files.length ? [`Files: ${files.join(' · ')}`] : []), ...(item.categories.length ? [`Categories: ${text(item.categories.join(', '))}`] : [])];
  return lines.map((line) => `<br><span class="muted">${line}</span>`).join('');
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0)} MB`;
}

function shorten(line: string): string {
  if (line.length <= SNIPPET_CHARS) return line;
  const cut = line.lastIndexOf(' ', SNIPPET_CHARS);
  return `${line.slice(0, cut > SNIPPET_CHARS / 2 ? cut : SNIPPET_CHARS).trimEnd()}…`;
}

/** Text and attribute values: & < > " ' escaped, characters no document should carry dropped. */
function text(value: string): string {
  return escapeUTF8(xmlChars(value));
}
