// A row → a feed item (source/gql/feed-surface): ids from the key, templates filled, link values
// URL-encoded, timestamps in each database's JSON form read as one instant.
import {describe, expect, it} from 'vitest';
import {feedItem} from '../../../source/gql/feed-surface/feed-items.js';
import {timestampMillis} from '../../../source/gql/feed-surface/timestamps.js';
import type {TableFeed} from '../../../source/gql/types.js';
import {gqlColumn, gqlTable} from '../../helpers/gql-model.js';

describe('timestampMillis', () => {
  const noon = Date.UTC(2026, 0, 2, 12, 0, 0);
  it.each([
    ['2026-01-02T12:00:00', noon], // PostgreSQL timestamp
    ['2026-01-02T12:00:00+00:00', noon], // PostgreSQL timestamptz
    ['2026-01-02T14:00:00+02', noon],
    ['2026-01-02T14:00:00+0200', noon],
    ['2026-01-02 12:00:00.000000', noon], // MariaDB datetime
    ['2026-01-02 12:00:00', noon], // SQLite text
    ['2026-01-02 12:00:00.5Z', noon + 500],
    ['2026-01-02', Date.UTC(2026, 0, 2)],
    [noon / 1000, noon], // Unix seconds
    [noon, noon], // milliseconds
  ])('%s', (value, expected) => {
    expect(timestampMillis(value)).toBe(expected);
  });
  it('NaN for what is not a time', () => {
    expect(timestampMillis('soon')).toBeNaN();
    expect(timestampMillis(null)).toBeNaN();
    expect(timestampMillis({})).toBeNaN();
  });
});

describe('feedItem', () => {
  const table = gqlTable('main', 'entries', [
    gqlColumn('feed', 'string', {isPrimaryKey: true}),
    gqlColumn('seq', 'int', {isPrimaryKey: true}),
    gqlColumn('title'),
    gqlColumn('body'),
    gqlColumn('at', 'datetime'),
  ]);
  const feed: TableFeed = {
    timestamp: 'at',
    title: [{column: 'title'}, {text: ' ('}, {column: 'feed'}, {text: ')'}],
    body: 'body',
    link: [{text: 'https://example.com/'}, {column: 'feed'}, {text: '?n='}, {column: 'seq'}],
  };

  it('id from the whole key, title filled, link values URL-encoded, the date', () => {
    const item = feedItem(table, feed, {feed: 'a b/c?', seq: 7, title: 'T & <i>', body: '<p>x</p>', at: '2026-01-02 12:00:00'});
    expect(item).toEqual({
      id: 'urn:workbench:gql:main.entries:a%20b%2Fc%3F,7',
      title: 'T & <i> (a b/c?)',
      link: 'https://example.com/a%20b%2Fc%3F?n=7',
      description: '<p>x</p>',
      author: null,
      published: Date.UTC(2026, 0, 2, 12),
    });
  });

  it('nulls fill as nothing; no body is no description; no link template is no link', () => {
    const item = feedItem(table, {...feed, link: undefined}, {feed: 'k', seq: 1, title: null, body: null, at: '2026-01-02'});
    expect(item).toMatchObject({id: 'urn:workbench:gql:main.entries:k,1', title: ' (k)', link: null, description: null});
  });
});
