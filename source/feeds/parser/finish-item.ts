import type {ParsedItem} from '../types.js';
import {collapseSpaces} from '../../text/html-text.js';
import {firstWords} from './first-words.js';

/** What every reader collects about an entry before the common finishing: a ParsedItem with gaps. */
export type ItemFields = ParsedItem;

/**
 * Fills the gaps the same way for every format: an untitled entry is named by its first words or
 * its link; categories are trimmed and deduplicated; absent fields are left out (not undefined).
 */
export function finishItem(fields: ItemFields): ParsedItem {
  const item: ParsedItem = {title: fields.title || fallbackTitle(fields), categories: uniqueCategories(fields.categories)};
  if (fields.guid) item.guid = fields.guid;
  if (fields.link) item.link = fields.link;
  if (fields.author) item.author = fields.author;
  if (fields.published) item.published = fields.published;
  if (fields.updated) item.updated = fields.updated;
  if (fields.summary) item.summary = fields.summary;
  if (fields.content) item.content = fields.content;
  if (fields.enclosures?.length) item.enclosures = fields.enclosures;
  if (fields.enclosuresOmitted) item.enclosuresOmitted = fields.enclosuresOmitted;
  return item;
}

function fallbackTitle(fields: ItemFields): string {
  const body = fields.summary ?? fields.content;
  const words = body ? firstWords(body) : '';
  return words || fields.link || '';
}

function uniqueCategories(categories: string[]): string[] {
  if (categories.length === 0) return categories;
  const seen = new Set<string>();
  for (const category of categories) {
    const name = collapseSpaces(category);
    if (name) seen.add(name);
  }
  return [...seen];
}
