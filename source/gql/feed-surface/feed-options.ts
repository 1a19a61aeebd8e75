import type {PropertyReader} from '../model/property-reader.js';
import {columnNamed} from '../model/table-options.js';
import type {DbTable, FeedTemplate, GqlColumn, TableFeed} from '../types.js';
import {FEED_KEY, FEED_KEYS, FEED_PREFIX} from './feed-keys.js';
import {isTemplate, parseTemplate} from './template.js';

const DATE_KINDS: ReadonlySet<string> = new Set(['date', 'datetime']);

/**
 * A table's `feed-*` keys (spec 3, syndicated feed surface), checked as event-options.ts checks
 * `emit-events`: `feed-timestamp` opts the table in and must name a date/time column;
 * `feed-title` (a column or a `{column}` template) and `feed-body` (a column) are required;
 * `feed-link` is an optional template with at least one placeholder. Every column named must
 * exist and be visible — the feed would publish a hidden one to anyone who can read it — and so
 * must the primary key (one or more columns), which makes the items' ids. Unknown `feed-*` keys,
 * empty values, malformed placeholders and feed keys without `feed-timestamp` are problems.
 */
export function tableFeed(read: PropertyReader, table: DbTable, columns: GqlColumn[], hidden: boolean): TableFeed | undefined {
  misplacedFeedKeys(read, 'table');
  const present = [...FEED_KEYS].filter((key) => read.has(key));
  if (!read.has(FEED_KEY.timestamp)) {
    for (const key of present) read.problem(key, `needs ${FEED_KEY.timestamp} on the same table (it opts the table into the feed surface)`);
    return undefined;
  }
  let valid = true;
  const fail = (key: string, reason: string, quoteValue = true) => {
    read.problem(key, reason, quoteValue);
    valid = false;
  };
  const visibleColumn = (key: string, name: string): string | undefined => {
    const found = columnNamed(table, name);
    if (!found) fail(key, `the table has no column ${name}`);
    else if (columns.find((column) => column.dbName === found)?.hidden) fail(key, `${found} is hidden (visibility: hidden): the feed would publish it`);
    return found;
  };
  const template = (key: string, value: string): FeedTemplate | undefined => {
    const parsed = parseTemplate(value);
    if ('error' in parsed) return void fail(key, `malformed placeholder: ${parsed.error}`);
    const parts: FeedTemplate = [];
    for (const part of parsed.parts) {
      if ('text' in part) parts.push(part);
      else {
        const column = visibleColumn(key, part.column);
        if (column) parts.push({column});
      }
    }
    return parts;
  };

  for (const key of present) if (read.text(key) === undefined) fail(key, 'is empty');
  if (hidden) fail(FEED_KEY.timestamp, 'the table is hidden (visibility: hidden): a feed would publish it', false);
  if (table.primaryKey.length === 0)
    fail(FEED_KEY.timestamp, `${table.schema}.${table.name} has no primary key: a feed needs one (one or more columns) for stable item ids`, false);
  for (const key of table.primaryKey) {
    if (columns.find((column) => column.dbName === key)?.hidden) fail(FEED_KEY.timestamp, `primary-key column ${key} is hidden: its values would be the feed items' ids`, false);
  }

  const timestampName = read.text(FEED_KEY.timestamp);
  const timestamp = timestampName === undefined ? undefined : visibleColumn(FEED_KEY.timestamp, timestampName);
  const timestampKind = columns.find((column) => column.dbName === timestamp)?.kind;
  if (timestamp && timestampKind && !DATE_KINDS.has(timestampKind)) fail(FEED_KEY.timestamp, `${timestamp} is not a date/time column (it is ${timestampKind})`);

  const titleValue = read.text(FEED_KEY.title);
  if (!read.has(FEED_KEY.title)) fail(FEED_KEY.timestamp, `${FEED_KEY.title} is required with ${FEED_KEY.timestamp}: a column or a {column} template`, false);
  const titleColumn = titleValue !== undefined && !isTemplate(titleValue) ? visibleColumn(FEED_KEY.title, titleValue) : undefined;
  const title = titleValue === undefined ? undefined : isTemplate(titleValue) ? template(FEED_KEY.title, titleValue) : titleColumn ? [{column: titleColumn}] : undefined;

  const bodyValue = read.text(FEED_KEY.body);
  if (!read.has(FEED_KEY.body)) fail(FEED_KEY.timestamp, `${FEED_KEY.body} is required with ${FEED_KEY.timestamp}: the column of the items' text or HTML`, false);
  if (bodyValue !== undefined && isTemplate(bodyValue)) fail(FEED_KEY.body, 'is a column name, not a template');
  const body = bodyValue === undefined || isTemplate(bodyValue) ? undefined : visibleColumn(FEED_KEY.body, bodyValue);

  const linkValue = read.text(FEED_KEY.link);
  let link: FeedTemplate | undefined;
  if (linkValue !== undefined) {
    const parsed = parseTemplate(linkValue);
    if ('parts' in parsed && !parsed.parts.some((part) => 'column' in part)) fail(FEED_KEY.link, 'has no {column} placeholder: every item would have the same link');
    else link = template(FEED_KEY.link, linkValue);
  }

  if (!valid || !timestamp || !title || !body) return undefined;
  return {timestamp, title, body, ...(link ? {link} : {})};
}

/** `feed-*` keys that are not the spec's, or written on a column or the model (they apply to a table). */
export function misplacedFeedKeys(read: PropertyReader, scope: 'model' | 'table' | 'column'): void {
  for (const key of Object.keys(read.props)) {
    if (!key.startsWith(FEED_PREFIX)) continue;
    if (!FEED_KEYS.has(key)) read.problem(key, `${key} is not a feed key: the spec's are ${[...FEED_KEYS].join(', ')}`, false);
    else if (scope !== 'table') read.problem(key, `applies to a table, not to a ${scope}`);
  }
}
