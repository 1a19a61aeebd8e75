import type {ParsedFeed, ParsedItem} from '../types.js';
import {parseFeedDate} from './dates.js';
import {atomEnclosures} from './enclosures.js';
import {finishItem} from './finish-item.js';
import {entryBase, innerBase, resolveUrl} from './resolve-url.js';
import {atomHtml, atomPlain, attr, child, lastChild, mediaDescription, rawOf, textOf} from './xml-values.js';
import type {XmlDocument, XmlNode} from './xml-tree.js';

/** Atom 1.0 and 0.3 (<feed>); elements are matched in the Atom namespace or none (undeclared 0.3 feeds). */
export function readAtom(doc: XmlDocument, root: XmlNode, documentUrl?: string): ParsedFeed {
  const base = innerBase(attr(root, 'xml:base'), documentUrl);
  const link = alternateLink(doc, root, base);
  const feed: ParsedFeed = {format: 'atom', version: version(root), title: atomPlain(doc, atomChild(root, 'title')), items: []};
  if (link) feed.link = link;
  const description = atomPlain(doc, atomChild(root, 'subtitle') ?? atomChild(root, 'tagline'));
  if (description) feed.description = description;
  const feedAuthor = authorName(doc, root);
  const itemBase = entryBase(attr(root, 'xml:base'), base, link);
  // <item> in an Atom feed is a mistake feedparser forgives; so do we.
  for (const node of root.children) if ((node.local === 'entry' || node.local === 'item') && isAtom(node)) feed.items.push(readEntry(doc, node, itemBase, feedAuthor));
  return feed;
}

function version(root: XmlNode): string {
  const xmlns = root.attrs?.xmlns ?? '';
  if (/purl\.org\/atom\/ns#/i.test(xmlns) || attr(root, 'version') === '0.3') return 'Atom 0.3';
  if (/w3\.org\/2005\/atom/i.test(xmlns)) return 'Atom 1.0';
  return 'Atom';
}

// Atom 0.3 feeds often declare no namespace at all.
function isAtom(node: XmlNode): boolean {
  return node.ns === 'atom' || node.ns === '';
}

function atomChild(node: XmlNode, local: string): XmlNode | undefined {
  return child(node, local, 'atom') ?? child(node, local);
}

function lastAtomChild(node: XmlNode, local: string): XmlNode | undefined {
  return lastChild(node, [[local, 'atom'], [local]]);
}

/**
 * rel="alternate" (the default), HTML first; resolved against xml:base. A <link> that gives its URL
 * as text instead of href (an RSS habit) counts, as in feedparser.
 */
function alternateLink(doc: XmlDocument, node: XmlNode, base: string | undefined): string | undefined {
  let best: XmlNode | undefined;
  for (const c of node.children) {
    if (c.local !== 'link' || !isAtom(c) || !linkHref(doc, c)) continue;
    if ((attr(c, 'rel') ?? 'alternate').toLowerCase() !== 'alternate') continue;
    const type = attr(c, 'type')?.toLowerCase();
    if (!type || type === 'text/html' || type === 'application/xhtml+xml') {
      best = c;
      break;
    }
    best ??= c;
  }
  if (!best) return undefined;
  return resolveUrl(linkHref(doc, best), innerBase(attr(best, 'xml:base'), base));
}

function linkHref(doc: XmlDocument, link: XmlNode): string | undefined {
  return attr(link, 'href') ?? rawOf(doc, link);
}

function authorName(doc: XmlDocument, node: XmlNode): string | undefined {
  const author = atomChild(node, 'author');
  if (!author) return rawOf(doc, child(node, 'creator', 'dc'));
  if (author.children.length === 0) return textOf(doc, author) || undefined;
  return textOf(doc, atomChild(author, 'name')) || textOf(doc, atomChild(author, 'email')) || textOf(doc, atomChild(author, 'uri')) || undefined;
}

function readEntry(doc: XmlDocument, entry: XmlNode, outerBase: string | undefined, feedAuthor: string | undefined): ParsedItem {
  const base = innerBase(attr(entry, 'xml:base'), outerBase);
  const categories: string[] = [];
  for (const node of entry.children) {
    if (node.local === 'category' && isAtom(node)) categories.push(attr(node, 'term') ?? attr(node, 'label') ?? textOf(doc, node));
    else if (node.local === 'subject' && node.ns === 'dc') categories.push(textOf(doc, node));
  }
  // A repeated date element: the last one counts, as in feedparser (the latest word on it).
  const date = (...names: string[]) => {
    for (const name of names) {
      const value = parseFeedDate(rawOf(doc, lastAtomChild(entry, name)));
      if (value) return value;
    }
    return undefined;
  };
  return finishItem({
    guid: rawOf(doc, atomChild(entry, 'id')),
    title: atomPlain(doc, atomChild(entry, 'title')),
    link: alternateLink(doc, entry, base),
    // An entry without an author has the feed's (RFC 4287, 4.2.1).
    author: authorName(doc, entry) ?? feedAuthor,
    published: date('published', 'issued', 'created') ?? parseFeedDate(rawOf(doc, child(entry, 'date', 'dc'))),
    updated: date('updated', 'modified'),
    summary: atomHtml(doc, atomChild(entry, 'summary')) ?? mediaDescription(doc, entry),
    content: attr(atomChild(entry, 'content'), 'src') ? undefined : atomHtml(doc, atomChild(entry, 'content')),
    categories,
    ...atomEnclosures(doc, entry, base, isAtom),
  });
}
