import {dialectOf} from '../dialect/dialect-of.js';
import type {DbTable, Provider} from '../types.js';

/**
 * The outbox table's column contract (the spec leaves it open; upstream's columns plus the three
 * a dispatcher needs to deliver in order, retry and say why). `workbench gql events init` creates
 * it; a table named by `outbox-table` that lacks one of these fails at model load.
 *
 * | column          | holds                                                                      |
 * |-----------------|----------------------------------------------------------------------------|
 * | id              | monotonic integer, assigned by the database: the event's id everywhere     |
 * | aggregate       | `schema.table` of the changed row: deliveries are ordered per aggregate     |
 * | aggregate_id    | the changed row's key as JSON text (`{"id":1}`)                            |
 * | op              | `insert`, `update` or `delete`                                             |
 * | payload         | JSON: `{table, op, key, before?, after?, changes?}` (see payload.ts)         |
 * | tenant          | the row's tenant (its `tenant-filter` column) as text, or null              |
 * | created_at      | when the change was written                                                |
 * | dispatched_at   | when every configured sink took it (or the subscription filtered it out)   |
 * | attempts        | failed deliveries so far                                                   |
 * | dead            | true after the last allowed attempt: a dead letter, kept until `retry`     |
 * | next_attempt_at | not before: the backoff after a failure, or a dispatcher's claim (lease)    |
 * | last_error      | the last failure, one line                                                 |
 */
export const OUTBOX_COLUMNS = [
  'id',
  'aggregate',
  'aggregate_id',
  'op',
  'payload',
  'tenant',
  'created_at',
  'dispatched_at',
  'attempts',
  'dead',
  'next_attempt_at',
  'last_error',
] as const;

export type OutboxColumn = (typeof OUTBOX_COLUMNS)[number];

/** The contract's columns the table lacks (case-insensitive, as rules are written). */
export function missingOutboxColumns(table: DbTable): string[] {
  const have = new Set(table.columns.map((column) => column.name.toLowerCase()));
  return OUTBOX_COLUMNS.filter((column) => !have.has(column));
}

/** The outbox's names as its DDL writes them: `table` and `index` quoted, `schema` and `name` as given. */
interface OutboxNames {
  table: string;
  index: string;
  schema: string;
  name: string;
  quote(name: string): string;
}

/** Each database's outbox DDL, by provider: the contract's columns in its types, and its index of pending rows. */
const OUTBOX_DDL: Readonly<Record<Provider, (names: OutboxNames) => string[]>> = {
  postgres: ({table, index}) => [
    `create table if not exists ${table} (
  id bigint generated always as identity primary key,
  aggregate text not null,
  aggregate_id text not null,
  op text not null,
  payload jsonb not null,
  tenant text,
  created_at timestamptz not null default now(),
  dispatched_at timestamptz,
  attempts integer not null default 0,
  dead boolean not null default false,
  next_attempt_at timestamptz,
  last_error text
)`,
    `create index if not exists ${index} on ${table} (aggregate, id) where dispatched_at is null and not dead`,
  ],
  mysql: ({table, index}) => [
    `create table if not exists ${table} (
  id bigint not null auto_increment primary key,
  aggregate varchar(255) not null,
  aggregate_id varchar(1024) not null,
  op varchar(16) not null,
  payload longtext not null,
  tenant varchar(255) null,
  created_at datetime(6) not null default current_timestamp(6),
  dispatched_at datetime(6) null,
  attempts int not null default 0,
  dead tinyint(1) not null default 0,
  next_attempt_at datetime(6) null,
  last_error text null,
  key ${index} (dispatched_at, dead, aggregate, id)
)`,
  ],
  sqlite: ({table, index, name, quote}) => [
    `create table if not exists ${table} (
  id integer primary key autoincrement,
  aggregate text not null,
  aggregate_id text not null,
  op text not null,
  payload text not null,
  tenant text,
  created_at text not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  dispatched_at text,
  attempts integer not null default 0,
  dead integer not null default 0,
  next_attempt_at text,
  last_error text
)`,
    `create index if not exists ${index} on ${quote(name)} (aggregate, id) where dispatched_at is null and dead = 0`,
  ],
  sqlserver: ({table, schema, name}) => [
    `if object_id(N'${schema}.${name}') is null create table ${table} (
  id bigint identity(1,1) primary key,
  aggregate nvarchar(255) not null,
  aggregate_id nvarchar(1024) not null,
  op nvarchar(16) not null,
  payload nvarchar(max) not null,
  tenant nvarchar(255) null,
  created_at datetime2 not null default sysutcdatetime(),
  dispatched_at datetime2 null,
  attempts int not null default 0,
  dead bit not null default 0,
  next_attempt_at datetime2 null,
  last_error nvarchar(max) null
)`,
  ],
};

/**
 * The statements that create an outbox table with the contract's columns and the index the
 * dispatcher reads pending rows through (pending rows per aggregate, in id order).
 */
export function outboxDdl(provider: Provider, schema: string, name: string): string[] {
  const dialect = dialectOf(provider);
  return OUTBOX_DDL[provider]({
    table: dialect.quotedTableName(schema, name),
    index: dialect.quoteIdentifier(`${name}_pending`),
    schema,
    name,
    quote: dialect.quoteIdentifier,
  });
}
