import {generateOpml} from 'feedsmith';
import type {Feed} from '../types.js';

interface Folder {
  feeds: Feed[];
  folders: Map<string, Folder>;
}

const emptyFolder = (): Folder => ({feeds: [], folders: new Map()});

/**
 * OPML 2.0 of the subscriptions: a category is a folder path (`Tech/Nested`, as imported), written
 * back as nested folder outlines; uncategorised feeds sit at the top level after the folders.
 */
export function writeOpml(feeds: Feed[], now: Date): string {
  const root = emptyFolder();
  for (const feed of feeds) {
    let folder = root;
    for (const part of (feed.category ?? '')
      .split('/')
      .map((name) => name.trim())
      .filter(Boolean)) {
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
  const feeds = folder.feeds.map((feed): Outline => ({text: feed.title, title: feed.title, type: 'rss', xmlUrl: feed.url, htmlUrl: feed.siteUrl ?? undefined}));
  return [...folders, ...feeds];
}
