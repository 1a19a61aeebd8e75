import type {Article, Enclosure, FullArticle} from '../types.js';
import {flag, isoOrNull} from '../../storage/time.js';

export interface ArticleRow {
  id: number;
  feed_id: number;
  title: string;
  link: string | null;
  author: string | null;
  published_at: number | string | null;
  sort_at: number | string;
  summary: string | null;
  categories: string;
  is_read: boolean | number;
  snoozed_until: number | string | null;
}

export interface FullArticleRow extends ArticleRow {
  content: string | null;
}

/** The columns of a list entry: everything but the (large) content. */
export const ARTICLE_COLUMNS = ['id', 'feed_id', 'title', 'link', 'author', 'published_at', 'sort_at', 'summary', 'categories', 'is_read', 'snoozed_until'] as const;

export function articleRecord(row: ArticleRow): Article {
  return {
    id: Number(row.id),
    feedId: Number(row.feed_id),
    title: row.title,
    link: row.link ?? null,
    author: row.author ?? null,
    publishedAt: isoOrNull(row.published_at),
    summary: row.summary ?? null,
    categories: parseCategories(row.categories),
    read: flag(row.is_read),
    snoozedUntil: isoOrNull(row.snoozed_until),
  };
}

export function fullArticleRecord(row: FullArticleRow, listIds: number[], enclosures: Enclosure[] = []): FullArticle {
  return {...articleRecord(row), content: row.content ?? null, listIds, enclosures};
}

/** The categories column: a JSON array of strings (anything else reads as none). */
export function parseCategories(text: string | null): string[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}
