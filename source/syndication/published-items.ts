import {httpLink} from '../feeds/safe-html.js';
import type {Enclosure} from '../feeds/types.js';
import {xmlChars} from '../feeds/xml-chars.js';
import {oneLine} from './one-line.js';
import {publishedCategories, publishedEnclosures} from './published-media.js';
import {memoSafeHtml} from './safe-html-memo.js';
import type {FeedItem, SyndicatedFeed} from './types.js';

/** An item as every representation publishes it: text XML allows, sanitised HTML, only http(s) links and enclosures. */
export interface PublishedItem {
  /** The item's identity (RSS guid), '' when nothing of it was printable. */
  id: string;
  title: string;
  link: string | undefined;
  /** Sanitised HTML, undefined when there is none. */
  html: string | undefined;
  author: string | undefined;
  published: Date;
  /** Absolute http(s) media files, in the item's order (empty: none). */
  enclosures: Enclosure[];
  /** One-line category names (empty: none). */
  categories: string[];
}

/** A document's title, description and site, cleaned like its items. */
export interface PublishedFeed {
  title: string;
  description: string | undefined;
  siteUrl: string | undefined;
  updated: Date;
}

export function publishedFeed(doc: SyndicatedFeed): PublishedFeed {
  const title = oneLine(doc.title) || doc.name;
  return {title, description: oneLine(doc.description ?? '') || undefined, siteUrl: httpLink(doc.siteUrl), updated: validDate(doc.updatedAt, 0)};
}

/** The items in the document's order (newest first), each cleaned once for whichever representation renders it. */
export function publishedItems(doc: SyndicatedFeed, limit = doc.items.length): PublishedItem[] {
  return doc.items.slice(0, limit).map((item) => publishedItem(item, doc.updatedAt));
}

function publishedItem(item: FeedItem, fallbackTime: number): PublishedItem {
  const link = httpLink(item.link);
  const html = item.description ? memoSafeHtml(item.description, link) : '';
  return {
    id: xmlChars(item.id).trim(),
    title: oneLine(item.title) || '(untitled)',
    link,
    html: html.trim() ? html : undefined,
    author: oneLine(item.author ?? '') || undefined,
    published: validDate(item.published, fallbackTime),
    enclosures: publishedEnclosures(item),
    categories: publishedCategories(item),
  };
}

function validDate(millis: number, fallback: number): Date {
  const date = new Date(millis);
  return Number.isNaN(date.getTime()) ? new Date(Number.isNaN(new Date(fallback).getTime()) ? 0 : fallback) : date;
}
