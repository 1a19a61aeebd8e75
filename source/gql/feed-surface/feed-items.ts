import type {FeedItem} from '../../syndication/index.js';
import type {FeedTemplate, GqlTable, Row, TableFeed} from '../types.js';
import {timestampMillis} from './timestamps.js';

/** A column's value as text: '' for null, JSON for objects (a `json` column). */
function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A template filled from a row; `encode` applies to each value (a link's are URL-encoded), never to the literal text. */
function fill(template: FeedTemplate, row: Row, nameOf: (dbName: string) => string, encode: (value: string) => string = (value) => value): string {
  return template.map((part) => ('text' in part ? part.text : encode(text(row[nameOf(part.column)])))).join('');
}

/**
 * The item of one row: its id from the primary key (`urn:workbench:gql:<schema.table>:<key>`,
 * each key value URL-encoded, composite keys comma-joined — the same row always has the same id,
 * whatever else changes), the title and link filled from their templates (link values
 * URL-encoded, so a value cannot add a path, query or scheme), the body as it is (the renderer
 * sanitises it), the timestamp as the date. Escaping for XML is the renderer's.
 */
export function feedItem(table: GqlTable, feed: TableFeed, row: Row): FeedItem {
  const names = new Map(table.columns.map((column) => [column.dbName, column.name]));
  const nameOf = (dbName: string) => names.get(dbName) ?? dbName;
  const key = table.primaryKey.map((column) => encodeURIComponent(text(row[nameOf(column)]))).join(',');
  const body = text(row[nameOf(feed.body)]);
  return {
    id: `urn:workbench:gql:${encodeURIComponent(table.key)}:${key}`,
    title: fill(feed.title, row, nameOf),
    link: feed.link ? fill(feed.link, row, nameOf, encodeURIComponent) : null,
    description: body === '' ? null : body,
    author: null,
    published: timestampMillis(row[nameOf(feed.timestamp)]),
  };
}
