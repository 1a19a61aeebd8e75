import type {ParsedFeed, ParsedItem} from '../types.js';
import {parseFeedDate} from './dates.js';
import {rssEnclosures} from './enclosures.js';
import {finishItem} from './finish-item.js';
import {entryBase, innerBase, resolveUrl} from './resolve-url.js';
import {atomHtml, atomPlain, attr, child, firstChild, htmlOf, inNamespace, lastChild, mediaDescription, rawOf, textOf} from './xml-values.js';
import type {XmlDocument, XmlNode} from './xml-tree.js';

/**
 * RSS 0.9x and 2.0 (root <rss>), RSS 0.90 and 1.0 (root <rdf:RDF>, items beside the channel) and
 * Microsoft's CDF (root <channel>, links in href attributes), which feedparser also reads.
 */
export function readRss(doc: XmlDocument, root: XmlNode, documentUrl?: string): ParsedFeed {
  const cdf = root.local === 'channel';
  const channel = cdf ? root : (child(root, 'channel') ?? root);
  const base = innerBase(attr(channel, 'xml:base'), innerBase(attr(root, 'xml:base'), documentUrl));
  const link = resolveUrl(cdf ? attr(channel, 'href') : channelLink(doc, channel), base);
  const itemBase = entryBase(attr(channel, 'xml:base') ?? attr(root, 'xml:base'), base, link);

  const feed: ParsedFeed = {
    format: root.local === 'rdf' ? 'rdf' : 'rss',
    version: version(root),
    title: textOf(doc, firstChild(channel, [['title'], ['title', 'dc']])) || atomPlain(doc, child(channel, 'title', 'atom')),
    items: [],
  };
  if (link) feed.link = link;
  const description = textOf(doc, firstChild(channel, cdf ? [['abstract']] : [['description'], ['description', 'dc'], ['subtitle', 'itunes'], ['summary', 'itunes']]));
  if (description) feed.description = description;
  const ttl = Number.parseInt(rawOf(doc, child(channel, 'ttl')) ?? '', 10);
  if (ttl > 0) feed.ttlMinutes = ttl;

  for (const node of channel.children) if (node.local === 'item' && inNamespace(node, channel, undefined)) feed.items.push(readItem(doc, node, itemBase, cdf));
  // RSS 0.90/1.0 put items beside the channel; broken 2.0 feeds do too.
  if (channel !== root) for (const node of root.children) if (node.local === 'item' && node.ns !== 'rdf') feed.items.push(readItem(doc, node, itemBase, cdf));
  return feed;
}

function version(root: XmlNode): string {
  if (root.local === 'channel') return 'CDF';
  if (root.local === 'rdf') return /netscape\.com\/rdf\/simple\/0\.9/i.test(root.attrs?.xmlns ?? '') ? 'RSS 0.90' : 'RSS 1.0';
  const declared = attr(root, 'version');
  // "2.01", "2.1": nothing but 2.0 was ever published under those numbers.
  if (declared?.startsWith('2.')) return 'RSS 2.0';
  return declared ? `RSS ${declared}` : 'RSS';
}

function channelLink(doc: XmlDocument, channel: XmlNode): string | undefined {
  return rawOf(doc, firstChild(channel, [['link']])) ?? atomLink(channel);
}

/** <atom:link rel="alternate"> (or without rel): RSS feeds that carry their link Atom's way. */
function atomLink(node: XmlNode): string | undefined {
  for (const c of node.children) {
    if (c.local !== 'link' || c.ns !== 'atom') continue;
    const rel = attr(c, 'rel') ?? 'alternate';
    if (rel === 'alternate' && attr(c, 'href')) return attr(c, 'href');
  }
  return undefined;
}

// Elements that carry an entry's summary. As in feedparser, the first of them in document order is
// the summary (even when empty: it holds the place) and a second one is the content when the item
// has no content element; an RSS <summary> is feedparser's too.
const SUMMARY_LIKE: ReadonlyArray<readonly [string, string?]> = [['description'], ['summary'], ['description', 'dc'], ['summary', 'itunes'], ['summary', 'atom']];
// <body> and <fullitem> are feedparser's: old RSS modules that carried full (X)HTML.
const CONTENT = [['encoded', 'content'], ['body', 'xhtml'], ['body'], ['fullitem']] as const;

/** summary and content of an item (see SUMMARY_LIKE); CDF's is <abstract>. */
function summaryAndContent(doc: XmlDocument, item: XmlNode, cdf: boolean): {summary?: string; content?: string} {
  if (cdf) return {summary: htmlOf(doc, firstChild(item, [['abstract']])) ?? mediaDescription(doc, item), content: htmlOf(doc, firstChild(item, CONTENT))};
  const found: XmlNode[] = [];
  for (const c of item.children) {
    if (c.local !== 'description' && c.local !== 'summary') continue;
    if (SUMMARY_LIKE.some(([local, ns]) => c.local === local && inNamespace(c, item, ns)) && found.push(c) === 2) break;
  }
  const content = htmlOf(doc, firstChild(item, CONTENT)) ?? atomHtml(doc, child(item, 'content', 'atom'));
  const summary = (found[0] ? summaryValue(doc, found[0]) : undefined) ?? mediaDescription(doc, item);
  return {summary, content: content ?? (found[1] ? summaryValue(doc, found[1]) : undefined)};
}

function summaryValue(doc: XmlDocument, node: XmlNode): string | undefined {
  if (node.ns === 'atom') return atomHtml(doc, node);
  // A bare <summary> has no HTML convention: feedparser reads it as text unless it looks like HTML.
  if (node.local === 'summary' && node.ns === '' && node.children.length === 0 && !looksLikeHtml(node.text)) return atomHtml(doc, node);
  return htmlOf(doc, node);
}

/** feedparser's test: a closing tag or a character reference. */
function looksLikeHtml(text: string): boolean {
  return /<\/\w+>|&#?\w+;/.test(text);
}

/** <tags>tag one, tag two</tags>: a made-up element feedparser reads as comma-separated categories. */
function madeUpTags(doc: XmlDocument, node: XmlNode, into: string[]): void {
  for (const tag of textOf(doc, node).split(',')) into.push(tag);
}

/** <itunes:category text="Technology"><itunes:category text="Gadgets"/></itunes:category> */
function itunesCategories(node: XmlNode, into: string[], depth = 0): void {
  const text = attr(node, 'text');
  if (text) into.push(text);
  // Apple nests one level; a hostile feed could nest thousands.
  if (depth < 3) for (const sub of node.children) if (sub.local === 'category' && sub.ns === 'itunes') itunesCategories(sub, into, depth + 1);
}

function readItem(doc: XmlDocument, item: XmlNode, outerBase: string | undefined, cdf: boolean): ParsedItem {
  const base = innerBase(attr(item, 'xml:base'), outerBase);
  const guidNode = child(item, 'guid');
  const guid = rawOf(doc, guidNode) ?? attr(item, 'rdf:about') ?? rawOf(doc, child(item, 'id', 'atom')) ?? rawOf(doc, child(item, 'identifier', 'dc'));
  const permalink = guid && guidNode && attr(guidNode, 'ispermalink')?.toLowerCase() !== 'false' && /^https?:\/\//i.test(guid) ? guid : undefined;
  const link =
    rawOf(doc, child(item, 'origlink', 'feedburner')) ?? rawOf(doc, firstChild(item, [['link']])) ?? atomLink(item) ?? permalink ?? (cdf ? attr(item, 'href') : undefined);

  const authorNode = firstChild(item, [['author'], ['creator', 'dc'], ['author', 'dc'], ['author', 'itunes'], ['author', 'atom']]);
  const author = authorNode?.ns === 'atom' ? textOf(doc, child(authorNode, 'name', 'atom') ?? authorNode) : textOf(doc, authorNode);

  const categories: string[] = [];
  for (const node of item.children) {
    if (node.local === 'category' && inNamespace(node, item, undefined)) categories.push(textOf(doc, node));
    else if (node.local === 'subject' && node.ns === 'dc') categories.push(textOf(doc, node));
    else if (node.local === 'category' && node.ns === 'atom') categories.push(attr(node, 'term') ?? '');
    else if (node.local === 'category' && node.ns === 'media') categories.push(textOf(doc, node));
    else if (node.local === 'category' && node.ns === 'itunes') itunesCategories(node, categories);
    else if (node.local === 'tags' && node.ns === '') madeUpTags(doc, node, categories);
  }

  return finishItem({
    guid,
    title: textOf(doc, firstChild(item, [['title'], ['title', 'dc'], ['title', 'media']])),
    link: resolveUrl(link, base),
    author: author || undefined,
    // A repeated date element: the last one counts, as in feedparser (the latest word on it).
    published: parseFeedDate(rawOf(doc, lastChild(item, [['pubdate'], ['date', 'dc'], ['issued', 'dcterms'], ['created', 'dcterms'], ['published', 'atom']]))),
    updated: parseFeedDate(
      rawOf(
        doc,
        lastChild(item, [
          ['modified', 'dcterms'],
          ['updated', 'atom'],
        ]),
      ) ?? (cdf ? attr(item, 'lastmod') : undefined),
    ),
    ...summaryAndContent(doc, item, cdf),
    categories,
    ...rssEnclosures(doc, item, base),
  });
}
