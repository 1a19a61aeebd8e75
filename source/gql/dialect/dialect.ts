import type {Knex} from 'knex';
import type {GqlProcedure, GqlTable, Row} from '../types.js';
import type {DriverConnection} from './driver-connection.js';

// The SQL stage of the pipeline speaks to the database through this one interface: every place
// where PostgreSQL, MariaDB/MySQL, SQLite and SQL Server write or answer differently is a named
// member here, and each database's answer lives in its own file (postgres.ts, mysql.ts,
// sqlite.ts, mssql.ts), as BifrostQL's ISqlDialect does. The statements themselves (query/,
// eav/, mutate/) stay one text for all four; they ask the dialect for the parts that differ.

/** One key of a JSON object built by the database: a GraphQL response key and the SQL of its value. */
export interface JsonPair {
  key: string;
  sql: string;
  bindings: unknown[];
}

/** One sort key of a list: the qualified column (`alias.column`) and its direction. */
export interface OrderKey {
  ref: string;
  descending: boolean;
}

/** The rows of a nested list, each already selected as one JSON object, and the window to cut them to. */
export interface RowList {
  /** FROM, correlation, policy and filter of the rows; the dialect adds the select, order and window. */
  rows: Knex.QueryBuilder;
  /** The row's JSON object. */
  object: Knex.Raw;
  order: OrderKey[];
  limit: number;
  offset: number;
  /** A fresh alias for a derived table, asked for only when the dialect writes one (aliases are numbered per request). */
  innerAlias: () => string;
}

/** The meta rows of an EAV parent row and the columns an attribute is read from. */
export interface AttributeRows {
  rows: Knex.QueryBuilder;
  keyRef: string;
  valueRef: string;
  /** The value read into JSON (`columnExpression`), with `??` for `valueRef`. */
  valueSql: string;
  innerAlias: () => string;
}

/** The parts of the set-based UPDATE that joins a staged temporary table on the key. */
export interface StagedUpdate {
  ref: string;
  alias: string;
  stage: string;
  keys: string[];
  setColumns: string[];
  /** The update policy's condition on `alias`, when there is one. */
  guard?: {sql: string; bindings: unknown[]};
}

/** One row upserted: inserted, or where its key exists already, the existing row updated inside the update policy. */
export interface UpsertRow {
  /** `schema.table`. */
  ref: string;
  /** The name the existing row is referred to by in the conflict branch. */
  alias: string;
  row: Row;
  keyColumns: string[];
  /** What a conflicting (existing) row gets; empty still touches the row (a key set to itself), so the statement reports it. */
  set: Row;
}

/** The update policy's condition on the existing row named `alias`, undefined when the policy adds none. */
export type GuardOn = (alias: string) => {sql: string; bindings: unknown[]} | undefined;

/** A stored procedure call: `send` runs one statement under the request's deadline and answers its rows. */
export type SendStatement = (statement: Knex.Raw) => Promise<Row[]>;

export interface Dialect {
  readonly provider: 'postgres' | 'mysql' | 'sqlite' | 'sqlserver';

  // ── names ──
  /** A name written into SQL text by hand (catalogue queries, sample scripts): quoted, its own quotes doubled. */
  quoteIdentifier(name: string): string;
  /** The table name knex is given: `schema.table`, or the bare name where schemas are not written. */
  qualifiedName(schema: string | undefined, name: string): string;
  /** A table written into SQL text by hand (DDL): `schema.name` quoted; SQLite leaves out `main`, the database a bare name means. */
  quotedTableName(schema: string, name: string): string;

  // ── JSON results (query/json-sql.ts) ──
  /** One JSON object of `pairs` (keys are GraphQL names), as one SQL expression. */
  jsonObject(db: Knex, pairs: JsonPair[]): Knex.Raw;
  /** The SQL placing a subquery's JSON (bound as `?`) inside an object as JSON, not as a string. */
  readonly embeddedJson: string;
  /** The ordered, windowed JSON array of a list's row objects, `[]` when there is none. */
  jsonArrayAgg(db: Knex, list: RowList): Knex.QueryBuilder | Knex.Raw;
  /** An exact number (decimal, bigint) read as JSON text, `??` the column: no double rounding. */
  readonly exactNumberAsText: string;
  /** Bytes read as lower-case hex, `??` the column. */
  readonly bytesAsHex: string;
  /** EAV attributes (`_meta`, `_attributes`, `_attr`) are served on this database. */
  readonly servesAttributes: boolean;
  /** EAV `_meta`: the meta rows as one JSON object attribute → value, `{}` when there is none. */
  attributeObjectAgg(db: Knex, attributes: AttributeRows): Knex.QueryBuilder | Knex.Raw;
  /** EAV `_attributes`: the meta rows as a JSON list of `{key, value}` ordered by key then value, `[]` when there is none. */
  attributeListAgg(db: Knex, attributes: AttributeRows): Knex.QueryBuilder | Knex.Raw;

  // ── filters (query/sql-parts.ts) ──
  /** `ref LIKE pattern` where the pattern escapes `%`, `_` and `\` with a backslash. */
  whereLikeEscaped(qb: Knex.QueryBuilder, ref: string, pattern: string): void;

  // ── connections (service.ts) ──
  /** Connections come from a pool (false: SQLite's one connection to its file; its reads go to reader processes). */
  readonly pooled: boolean;
  /** Sent on each new pooled connection: what the read path needs of a session. */
  readonly sessionSetup?: string;

  // ── sending statements (query/statements.ts) ──
  /** Sent on a connection held from knex's pool under a server-side deadline (deadline.ts); else through knex. */
  readonly runsPooledWithDeadline: boolean;
  /** Sent as a named prepared statement in the driver's native form (parsed and planned once per connection). */
  readonly sendsPreparedNative: boolean;
  /** A query past its timeout is cancelled on the server (SQLite runs on this thread: it cannot be). */
  readonly cancelsOnTimeout: boolean;

  // ── statement deadlines (query/deadline.ts), on the pooled connection of runsPooledWithDeadline ──
  /** Gives the connection's session the statement deadline, so the database itself cuts a statement past it; false: it has none per session. */
  setStatementTimeout(connection: DriverConnection, ms: number): Promise<boolean>;
  /** Cancels what a pooled connection is running, over `db`: a second, small knex of its own, so the cancel never waits behind the pool it frees. */
  cancelStatement(db: Knex, connection: DriverConnection): Promise<void>;
  /** Sent on the connection after a cancel, so a cancel that arrived as its statement ended cannot fall on the next statement. */
  afterCancel(connection: DriverConnection): Promise<void>;
  /** Whether an error is this database cutting a statement at its session deadline (not a cancel, not any other error). */
  isStatementTimeout(error: unknown): boolean;
  /** The rows of a `db.raw` result, in this driver's shape. */
  rowsOf(result: unknown): Row[];
  /** The cost bound's row estimates by table key, from the catalogue where the database keeps one. */
  rowEstimates(db: Knex, tables: readonly GqlTable[]): Promise<Map<string, number>>;
  /** A stored procedure or function called with its `in` parameters in declared order; its rows. */
  callProcedure(db: Knex, procedure: GqlProcedure, args: Record<string, unknown>, send: SendStatement): Promise<Row[]>;

  // ── writes (mutate/) ──
  /** Bound parameters one statement may carry. */
  readonly maxBindings: number;
  /** The driver's affected-row count of a raw statement. */
  affectedRows(result: unknown): number;
  /** The rows a driver hands back from `returning` / `output`, from a raw result, as a list. */
  returnedRows(result: unknown): Row[];
  /** An insert answers the new row's id as knex's `[insertId]` (no RETURNING of the key columns). */
  readonly insertAnswersInsertId: boolean;
  /** One upsert statement: an existing row the guard does not reach (another tenant's, a soft-deleted one) is never changed. */
  upsert(db: Knex, upsert: UpsertRow, guardOn: GuardOn): Knex.Raw;
  /** An upsert hands back the key of the row it wrote (and nothing for a guarded no-op). */
  readonly upsertReturnsWrittenKey: boolean;
  /** Date and time columns take ISO text, not a Date (no date type). */
  readonly storesDatesAsText: boolean;
  /** `qb` reading the rows it will change, locked against other writers until the transaction ends. */
  lockForUpdate(qb: Knex.QueryBuilder): Knex.QueryBuilder;
  /** `qb` locked as lockForUpdate locks it, rows another transaction holds skipped rather than waited for (the outbox claim). */
  lockSkippingLocked(qb: Knex.QueryBuilder): Knex.QueryBuilder;
  /** A boolean as a column of this database stores it: PostgreSQL has a boolean type, the others 0/1 (tinyint, integer, bit). */
  storedBoolean(value: boolean): boolean | number;
  /** DDL statements run inside a transaction and roll back with it (MariaDB/MySQL commit each one on its own). */
  readonly transactionalDdl: boolean;
  /** A batch at `bulk-batch-threshold` runs set-based (staged updates, multi-row inserts), not per row. */
  readonly setBasedBatches: boolean;
  /** The set-based path can capture events: its multi-row insert hands back the rows it inserted. */
  readonly setBasedBatchesCaptureEvents: boolean;
  /** The name of a staging table, unique per statement by `suffix`. */
  stagingTable(suffix: string): string;
  /** An empty temporary table `stage` with the types of `columns` of `ref`. */
  createStagingTable(db: Knex, stage: string, columns: string[], ref: string): Knex.Raw;
  /** What a freshly filled staging table needs before the join (statistics), if anything. */
  afterStaging(db: Knex, stage: string): Knex.Raw | undefined;
  /** One UPDATE of `ref` from the staged rows joined on the key, inside the guard. */
  updateFromStaging(db: Knex, update: StagedUpdate): Knex.Raw;
  /** The staging table dropped after the update, unless the transaction's end drops it. */
  dropStagingTable(db: Knex, stage: string): Knex.Raw | undefined;
  /** A multi-row insert handing back every row it inserted, and those rows read from the driver's answer. */
  insertReturningAll(db: Knex, insert: Knex.QueryBuilder): {statement: Knex.QueryBuilder | Knex.Raw; rows(result: unknown): Row[]};
}
