import {rootStatement} from '../query/json-sql.js';
import type {CollectionPlan, ColumnPlan} from '../query/plan.js';
import {compile, parseJson, run, type Statement} from '../query/statements.js';
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
  const rows = await run(ctx, compiled(ctx, plan));
  return rows.map((row) => parseJson(row.j) as Row);
}

const MAX_COMPILED_PER_TABLE = 256;
// The statement depends on the table and on the user only through the row policy (their claims
// and roles): compiled once per both, as read-page.ts keeps a query's, not built on every poll.
// Kept per table object, so a service opened again (another model) never reuses another's SQL.
const statements = new WeakMap<GqlTable, Map<string, Statement>>();

function compiled(ctx: GqlRequestContext, plan: CollectionPlan): Statement {
  let known = statements.get(plan.table);
  if (!known) statements.set(plan.table, (known = new Map()));
  const key = `${plan.limit}\u0000${JSON.stringify(ctx.user.claims)}\u0000${ctx.user.roles.join(',')}`;
  const statement = known.get(key) ?? compile(rootStatement(ctx, plan, false));
  // Re-inserted on every use: the least recently used go first.
  known.delete(key);
  known.set(key, statement);
  if (known.size > MAX_COMPILED_PER_TABLE) known.delete(known.keys().next().value!);
  return statement;
}
