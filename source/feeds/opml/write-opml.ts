import {generateOpml} from 'feedsmith';
import type {Feed} from '../types.js';
import {xmlChars} from '../xml-chars.js';
import {MAX_FOLDER_DEPTH} from './read-opml.js';

interface Folder {
  feeds: Feed[];
  folders: Map<string, Folder>;
}

const emptyFolder = (): Folder => ({feeds: [], folders: new Map()});

/**
 * OPML 2.0 of the subscriptions: a category is a folder path (`Tech/Nested`, as imported), written
 * back as nested folder outlines, at most MAX_FOLDER_DEPTH deep; uncategorised feeds sit at the
 * top level after the folders. Always well-formed XML: no control characters from a feed's
 * title, and no subscriptions is an OPML with an empty body.
 */
export function writeOpml(feeds: Feed[], now: Date): string {
  if (feeds.length === 0) return emptyOpml(now);
  const root = emptyFolder();
  for (const feed of feeds) {
    let folder = root;
    for (const part of xmlChars(feed.category ?? '')
      .split('/')
      .map((name) => name.trim())
      .filter(Boolean)
      .slice(0, MAX_FOLDER_DEPTH)) {
      const next = folder.folders.get(part) ?? emptyFolder();
      folder.folders.set(part, next);
      folder = next;
    }
    folder.feeds.push(feed);
  }
  return generateOpml({
    head: {title: 'workbench subscriptions', dateCreated: now},
    body: {outlines: outlinesOf(root)},
  });
}

type Outline = {text: string; title: string; type?: string; xmlUrl?: string; htmlUrl?: string; outlines?: Outline[]};

function outlinesOf(folder: Folder): Outline[] {
  const folders = [...folder.folders].sort(([a], [b]) => a.localeCompare(b)).map(([name, inner]): Outline => ({text: name, title: name, outlines: outlinesOf(inner)}));
  const feeds = folder.feeds.map((feed): Outline => {
    const title = xmlChars(feed.title) || xmlChars(feed.url);
    return {text: title, title, type: 'rss', xmlUrl: xmlChars(feed.url), htmlUrl: feed.siteUrl ? xmlChars(feed.siteUrl) : undefined};
  });
  return [...folders, ...feeds];
}

/** feedsmith refuses an OPML without outlines; an empty export is still a valid document. */
function emptyOpml(now: Date): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<opml version="2.0">
  <head>
    <title>workbench subscriptions</title>
    <dateCreated>${now.toUTCString()}</dateCreated>
  </head>
  <body/>
</opml>
`;
}
