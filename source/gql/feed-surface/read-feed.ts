import {rootStatement} from '../query/json-sql.js';
import type {CollectionPlan, ColumnPlan} from '../query/plan.js';
import {compile, parseJson, run} from '../query/statements.js';
import type {GqlColumn, GqlRequestContext, GqlTable, Row, TableFeed} from '../types.js';

/** Items a feed carries: its newest rows. Readers poll; they do not page. */
export const FEED_ITEMS = 50;

/** The columns an item is made of: the key, the timestamp, and those the title, body and link name. */
export function feedColumns(table: GqlTable, feed: TableFeed): GqlColumn[] {
  const names = new Set([...table.primaryKey, feed.timestamp, feed.body, ...[...feed.title, ...(feed.link ?? [])].flatMap((part) => ('column' in part ? [part.column] : []))]);
  return table.columns.filter((column) => names.has(column.dbName));
}

/**
 * The newest rows of a feed table for the request's user, through the GraphQL read path
 * (query/json-sql.ts): the same row policy as any `<table>` query — tenant filter, auto-filters,
 * soft delete (a deleted row never appears), a user denied the table refused — and the same JSON
 * the database builds for it. Newest first by the timestamp, ties broken by the key (newest key
 * first), rows without a timestamp left out. Each row is keyed by the columns' GraphQL names.
 */
export async function readFeedRows(ctx: GqlRequestContext, table: GqlTable, feed: TableFeed, limit = FEED_ITEMS): Promise<Row[]> {
  const columns = feedColumns(table, feed);
  const timestamp = columns.find((column) => column.dbName === feed.timestamp)!;
  const plan: CollectionPlan = {
    table,
    filter: {[timestamp.name]: {_null: false}},
    sort: [{column: feed.timestamp, descending: true}, ...table.primaryKey.map((column) => ({column, descending: true}))],
    limit,
    offset: 0,
    fields: columns.map((column): ColumnPlan => ({kind: 'column', key: column.name, column})),
  };
  const rows = await run(ctx, compile(rootStatement(ctx, plan, false)));
  return rows.map((row) => parseJson(row.j) as Row);
}
