/**
 * The GraphQL service's contract (spec 3): what each stage hands the next.
 *
 *   settings/   appsettings.json + GqlService__* env → GqlSettings, ConnectionInfo
 *   introspect/ live database → DbModel (tables, columns, keys, procedures) per provider
 *   metadata/   GqlService:Metadata strings → MetadataRule[] → ResolvedMetadata (per target)
 *   model/      DbModel + ResolvedMetadata → GqlModel (names, links, limits, policies)
 *   policy/     GqlModel + UserContext → the row predicates every read and write carries
 *   schema/     GqlModel → graphql-js schema (queries, aggregates, mutations, _table, _rawQuery)
 *   query/      GraphQL selection → QueryPlan → SQL (one statement per table, or one) → rows
 *   mutate/     insert/update/upsert/delete, batches, updateWhere
 *   auth/       bearer token → UserContext (jose, JWKS discovery)
 *   sample/     the Chinook sample (fixtures/chinook) loaded into a database: `gql sample`, the demo
 *   service.ts  all of the above opened once: execute(query, variables, user)
 *
 * Later issues plug in here without rework: EAV, files, feed surface, chat and CDC add keys the
 * metadata stage already keeps verbatim (`meta`), and hook into mutate/ through MutationHooks.
 */
import type {Knex} from 'knex';

export type Provider = 'sqlite' | 'postgres' | 'mysql' | 'sqlserver';

// ---------------------------------------------------------------- settings

export interface GqlSettings {
  provider: Provider;
  /** `ConnectionStrings:gqlservice`, as written (it may hold a password: never log it). */
  connectionString: string;
  path: string; // GqlService:Path, default /graphql
  playground: string; // GqlService:Playground, default /
  disableAuth: boolean;
  metadata: string[];
  http3: {enabled: boolean; httpsPort: number};
  jwt: {authority?: string; audience?: string};
  cdc: {webhookUrl?: string; natsUrl?: string};
  /** `GqlService:Chat:*`: the model endpoint the chat endpoint runs against (source/gql/chat/README.md). */
  chat?: {api?: 'messages' | 'chat-completions'; baseUrl?: string; model?: string; apiKey?: string};
  /** Where the settings came from, for messages: the file path or 'defaults'. */
  source: string;
}

export interface ConnectionInfo {
  provider: Provider;
  /** A knex config ready for `knex(...)` (client, connection, pool). */
  knex: Knex.Config;
  /** The connection string with the password replaced by `***`, for logs and `gql check`. */
  redacted: string;
  /** Warnings to print while the connection is in use (TrustServerCertificate=True). */
  warnings: string[];
}

// ---------------------------------------------------------------- the live database

/** The handful of value kinds the GraphQL layer maps to scalars and filters. */
export type ColumnKind = 'int' | 'bigint' | 'float' | 'decimal' | 'string' | 'boolean' | 'date' | 'datetime' | 'time' | 'json' | 'binary' | 'uuid';

export interface DbColumn {
  name: string;
  /** The database's own type name, lower case (`integer`, `nvarchar`, `numeric`). */
  dataType: string;
  kind: ColumnKind;
  nullable: boolean;
  /** Filled by the database on insert (identity, autoincrement, serial, rowid alias). */
  isIdentity: boolean;
  hasDefault: boolean;
}

export interface DbForeignKey {
  name: string;
  columns: string[];
  refSchema: string;
  refTable: string;
  refColumns: string[];
}

export interface DbTable {
  /** The schema (`main` on SQLite, the database name on MySQL, `public`/`dbo` elsewhere). */
  schema: string;
  name: string;
  columns: DbColumn[];
  primaryKey: string[];
  foreignKeys: DbForeignKey[];
  isView: boolean;
}

export interface DbProcedureParam {
  name: string;
  kind: ColumnKind;
  mode: 'in' | 'out' | 'inout';
}

export interface DbProcedure {
  schema: string;
  name: string;
  params: DbProcedureParam[];
  /** Whether it returns rows (a set-returning function / a procedure with a result set). */
  returnsRows: boolean;
}

export interface DbModel {
  provider: Provider;
  defaultSchema: string;
  tables: DbTable[];
  procedures: DbProcedure[];
}

// ---------------------------------------------------------------- metadata rules

export interface MetadataRule {
  /** 0-based position in GqlService:Metadata: later rules override earlier ones. */
  index: number;
  /** The rule as written, for error messages. */
  text: string;
  selectors: string[];
  /** Keys normalised (kebab-case, min-length → minlength), in written order. */
  properties: Array<[key: string, value: string]>;
}

/** A problem found at model load: `gql check` lists them all, the server refuses to start on any. */
export interface ModelProblem {
  message: string;
  /** The rule text when the problem is a rule's. */
  rule?: string;
  ruleIndex?: number;
  /** Where: `:root`, `schema.table` or `schema.table.column`. */
  target?: string;
}

/** Properties per target after every rule applied in order (last writer wins, join/many-to-many accumulate). */
export interface ResolvedMetadata {
  model: Record<string, string>;
  /** Keyed by `schema.table`. */
  tables: Map<string, Record<string, string>>;
  /** Keyed by `schema.table.column`. */
  columns: Map<string, Record<string, string>>;
  /** The rule that last wrote each property, keyed `<target>\u0000<key>` (target `:root` for the model): problems name it. */
  sources?: Map<string, MetadataRule>;
}

// ---------------------------------------------------------------- the model served

export type PopulateKind = 'created-by' | 'updated-by' | 'created-on' | 'updated-on' | 'deleted-on' | 'deleted-by';

export interface GqlColumn {
  /** The database's name. */
  dbName: string;
  /** The GraphQL field name (the column name as is, upstream's choice). */
  name: string;
  kind: ColumnKind;
  dataType: string;
  nullable: boolean;
  isPrimaryKey: boolean;
  isIdentity: boolean;
  hasDefault: boolean;
  hidden: boolean;
  /** `update: none`. */
  readOnly: boolean;
  populate?: PopulateKind;
  /** `file`/`file-storage`: the column holds the storage key of an uploaded file (source/gql/files/). */
  file?: FileColumn;
  /** Every metadata property of this column, verbatim (later issues read their own keys here). */
  meta: Record<string, string>;
}

/** Where a file column's bytes live (`storage`, or the `file` value): see source/gql/files/README.md. */
export type FileStorageConfig =
  | {kind: 'disk'; /** Absolute, or relative to WORKBENCH_HOME; undefined: $WORKBENCH_HOME/gql-files. */ dir?: string}
  | {kind: 's3'; bucket: string; prefix: string; endpoint?: string; region?: string; pathStyle: boolean};

export interface FileColumn {
  storage: FileStorageConfig;
  /** `max-size` in bytes (default 100 MiB). */
  maxSize: number;
  /** `accept`: MIME patterns (`image/*`, `application/pdf`), lower case; undefined: any type. */
  accept?: string[];
  /** `content-type-column`, `file-name-column`: db names of string columns of the same table. */
  contentTypeColumn?: string;
  fileNameColumn?: string;
}

export interface GqlLink {
  /** The GraphQL field name on the source table's object type. */
  name: string;
  /** `single`: many-to-one (the source holds the key); `many`: one-to-many or many-to-many. */
  kind: 'single' | 'many';
  /** Key of the target table (`schema.table`). */
  target: string;
  sourceColumns: string[];
  targetColumns: string[];
  /** Many-to-many: source.sourceColumns = junction.junctionSourceColumns, junction.junctionTargetColumns = target.targetColumns. */
  via?: {junction: string; junctionSourceColumns: string[]; junctionTargetColumns: string[]};
  origin: 'foreign-key' | 'join-rule' | 'many-to-many' | 'name-match';
}

export interface GqlTable {
  /** `schema.table`: the key every map uses. */
  key: string;
  schema: string;
  dbName: string;
  /** The GraphQL name: de-pluralised and schema-prefixed as the rules say. */
  name: string;
  /** `schema-display: field`: the schema's field this table sits under (undefined in flat/prefix). */
  schemaField?: string;
  columns: GqlColumn[];
  /** Primary-key column db names (empty for a keyless table: no mutations). */
  primaryKey: string[];
  /** Roughly how many rows it holds (query/row-estimates.ts), for the cost bound; unset while unknown. */
  rowEstimate?: number;
  links: GqlLink[];
  hidden: boolean;
  isView: boolean;
  label?: string;
  defaultLimit?: number;
  tenantColumn?: string;
  autoFilters: Array<{column: string; claim: string}>;
  softDelete?: {column: string; byColumn?: string};
  deleteType: 'hard' | 'soft';
  batchMaxSize?: number;
  bulkBatchThreshold: number; // default 50; ≤0 disables the set-based path
  batchDuplicatePolicy: 'last-wins' | 'reject';
  filteredUpdate: boolean;
  filteredUpdateMaxAffected: number; // default 100
  /** `emit-events`: the operations that write change events to the outbox, and what they carry. */
  events?: TableEvents;
  /** Set on the parent of an EAV meta table (`eav-*` keys, source/gql/eav/): its attributes. */
  eav?: TableEav;
  /** `feed-*`: the table's rows published as a feed at `GET /feeds/<name>` (feed-surface/). */
  feed?: TableFeed;
  meta: Record<string, string>;
}

/** Where a table's entity-attribute-value rows live: the meta table and its three columns (db names). */
export interface TableEav {
  /** Key of the meta table (`schema.table`); hidden from the schema, read and written only through the parent. */
  table: string;
  fk: string;
  key: string;
  value: string;
  valueKind: ColumnKind;
}

// ---------------------------------------------------------------- syndicated feed surface

/** A `{column}` template: literal text and column db names, in order. */
export type FeedTemplate = Array<{text: string} | {column: string}>;

/** `feed-timestamp`, `feed-title`, `feed-body`, `feed-link` as checked at load: db column names. */
export interface TableFeed {
  timestamp: string;
  title: FeedTemplate;
  body: string;
  link?: FeedTemplate;
}

// ---------------------------------------------------------------- change events (CDC)

export type EventOp = 'insert' | 'update' | 'delete';

/** `event-payload`: the whole row (after image, and the before image on update and delete), the changed columns, or the key alone. */
export type EventPayloadMode = 'full' | 'changed' | 'keys';

export interface TableEvents {
  ops: EventOp[];
  payload: EventPayloadMode;
  /** `event-sink`: only `outbox` exists. */
  sink: 'outbox';
  /**
   * Who writes the outbox rows: the service, in its write's transaction (the default), or the
   * database's `wb_cdc_` triggers (`gql events install-triggers`), found installed at load — the
   * service then writes none, or every change through it would have two events.
   */
  capture: 'service' | 'trigger';
}

/** What the sinks receive (`subscription-*`); undefined: every event is delivered. */
export interface EventSubscription {
  /** `subscription-tables` as table keys (`schema.table`); undefined: every table. Empty: nothing is delivered. */
  tables?: string[];
  /** `subscription-tenant`: only rows of this tenant are delivered (rows without a tenant never). */
  tenant?: string;
  /** `subscription-redact`: columns stripped from every payload image (keys are never stripped). */
  redact: string[];
}

/** The model's change-event settings, present once a table sets `emit-events` (or the model names an outbox). */
export interface ModelEvents {
  /** `outbox-table`: where events are written, in the transaction of the change. */
  /**
   * `jsonRows`: the outbox has the contract's PostgreSQL types (payload jsonb, created_at
   * timestamptz), so a transaction's events go in as one JSON document (outbox-postgres.ts), not as
   * six bound parameters a row.
   */
  outbox: {schema: string; name: string; key: string; jsonRows?: true};
  /** `webhook-secret`: one signature per secret (several: rotation). */
  secrets: string[];
  subscription?: EventSubscription;
}

export interface GqlProcedure {
  schema: string;
  dbName: string;
  /** The GraphQL field name. */
  name: string;
  params: DbProcedureParam[];
  returnsRows: boolean;
}

export type GqlConventions = 'classic' | 'bifrost';

export interface GqlModel {
  provider: Provider;
  defaultSchema: string;
  tables: GqlTable[];
  byKey: Map<string, GqlTable>;
  /** Visible tables by GraphQL name. */
  byName: Map<string, GqlTable>;
  procedures: GqlProcedure[];
  /** `max-query-rows`, default 10000. */
  maxQueryRows: number;
  /** `max-query-cost`: the rows a document may reach by its limits (query/cost.ts), default 2,000,000. */
  maxQueryCost?: number;
  /** `max-query-depth`: how deep selections may nest, default 15. */
  maxQueryDepth?: number;
  /** `statement-timeout`: seconds each statement may run before the database cancels it (query/deadline.ts), default 30. */
  statementTimeoutSeconds?: number;
  /** The model's `default-limit`, else 100 (the unspecified-limit window). */
  defaultLimit: number;
  tenantContextKey: string; // default tenant_id
  autoFilterBypassRole?: string;
  rawSql: {enabled: boolean; role: string; timeoutSeconds?: number; maxRows?: number};
  genericTable: {enabled: boolean; role: string; maxRows?: number; allowed?: string[]; denied?: string[]};
  schemaDisplay: 'flat' | 'prefix' | 'field';
  schemaDefault?: string;
  schemaExcluded: string[];
  /**
   * `conventions`: the shape of the schema. `classic` (undefined: the default) names fields as the
   * database does and serves nested collections as lists; `bifrost` is upstream's current shape —
   * names with a lower-case first letter, nested collections as `<t>_paged`, a per-row `_agg`.
   */
  conventions?: GqlConventions;
  /** Change events: the outbox and what its sinks receive (undefined: no table emits). */
  events?: ModelEvents;
  /** Every `:root` property verbatim. */
  meta: Record<string, string>;
}

// ---------------------------------------------------------------- requests

/** Who is asking: from a verified token, or anonymous when auth is off. */
export interface UserContext {
  /** All claims of the token (`sub`, `tenant_id`, roles…); empty when anonymous. */
  claims: Record<string, unknown>;
  /** From `roles`/`role` claims (string or array). */
  roles: string[];
  /** Written by populate created-by/updated-by/deleted-by: `sub`, else `name`, else `email`. */
  auditKey?: string;
  anonymous: boolean;
}

/** A SQL statement the request sent, as the debug extension shows it. */
export interface SentStatement {
  sql: string;
  bindings: readonly unknown[];
  ms: number;
}

/** What every resolver gets as GraphQL context. */
export interface GqlRequestContext {
  model: GqlModel;
  db: Knex;
  user: UserContext;
  /** Set when the debug header asked for it: each statement sent is pushed here. */
  statements?: SentStatement[];
  /** Called after a transaction that wrote change events commits (wakes the dispatcher and the subscriptions). */
  onEvents?: () => void;
  /** Aborted when the request's client went away: its running statement is cancelled (query/deadline.ts). */
  signal?: AbortSignal;
  /** Cancels what a pooled driver connection is running, over a connection of its own (query/deadline.ts). */
  cancelStatement?: (connection: unknown) => Promise<void>;
  /** The outbox as a stream (events/outbox-tail.ts), for `<t>Changed` subscriptions; typed loosely to keep this file free of imports. */
  changeFeed?: unknown;
  /** SQLite on a file: the processes its reads run in, off the service's thread (query/sqlite-readers/). */
  sqliteReaders?: SqliteReaders;
}

/** A read statement for a SQLite reader process: compiled SQL, how long it may run once running, the request's signal. */
export interface SqliteReadRequest {
  sql: string;
  bindings: readonly unknown[];
  ms: number;
  signal?: AbortSignal;
}

/** What the reader pool is doing now: processes alive, statements running in them, reads waiting for a process. */
export interface SqliteReadersState {
  size: number;
  processes: number;
  running: number;
  waiting: number;
}

/** The reads of a SQLite file run in processes of their own (query/sqlite-readers/reader-pool.ts). */
export interface SqliteReaders {
  /** The statement's rows, or `{write: true}` for a statement that writes (the caller runs it on the service's connection). */
  read(request: SqliteReadRequest): Promise<{rows: Row[]} | {write: true}>;
  state(): SqliteReadersState;
}

/** A filter as written in GraphQL: `{col: {_eq: 1}, and: [...], or: [...], <link>: {...}}`. */
export type FilterInput = Record<string, unknown>;

export type Row = Record<string, unknown>;

// ---------------------------------------------------------------- the service

export interface GqlExecuteArgs {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  user: UserContext;
  /** Collect the SQL sent into `extensions.sql` ({count, statements}). */
  debug?: boolean;
  /** Aborted when whoever asked is gone: the statement running for the request is cancelled. */
  signal?: AbortSignal;
}

export interface GqlExecuteResult {
  data?: Record<string, unknown> | null;
  errors?: ReadonlyArray<{message: string; path?: ReadonlyArray<string | number>; extensions?: Record<string, unknown>}>;
  extensions?: Record<string, unknown>;
}

/**
 * One opened service: settings read, database connected, model loaded, schema built.
 * Made by `openGqlService(settings)` in source/gql/service.ts; the server, `gql query`, the TUI
 * pane and the benchmark all execute through it.
 */
export interface GqlService {
  settings: GqlSettings;
  model: GqlModel;
  /** graphql-js GraphQLSchema (typed loosely here so this file needs no graphql import). */
  schema: unknown;
  db: Knex;
  /**
   * The cache of parsed and validated documents `execute` goes through (query/document-cache.ts:
   * `prepare(text)` → `{document}` or `{errors}`), for the HTTP server to prepare through the same
   * one — the read path's compiled SQL is keyed by its documents. Typed loosely, as `schema` is.
   */
  documents?: {
    prepare(text: string): {document?: unknown; errors?: readonly unknown[]};
    admit(text: string, operationName?: string | null, variables?: Record<string, unknown> | null): {document?: unknown; errors?: readonly unknown[]};
  };
  execute(args: GqlExecuteArgs): Promise<GqlExecuteResult>;
  /**
   * Runs a subscription (`<t>Changed`): its results as they come, or the errors that stopped it
   * before it started. The WebSocket server and the GraphQL pane run subscriptions through it.
   */
  subscribe?(args: GqlExecuteArgs): Promise<AsyncIterableIterator<GqlExecuteResult> | GqlExecuteResult>;
  /** The resolvers' context for one request of `user` (the servers build theirs here: change hooks, subscriptions). */
  context?(user: UserContext): GqlRequestContext;
  /** Hears every committed change that wrote events (through this service); returns the unsubscribe. */
  onEvents?(listener: () => void): () => void;
  /** SQLite on a file: the reader processes its reads run in (absent on `:memory:`, the servers, or with `sqliteReaders: 0`). */
  sqliteReaders?: Pick<SqliteReaders, 'state'>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------- row policy

export type PolicyOperation = 'read' | 'insert' | 'update' | 'delete';

/**
 * One predicate a metadata rule adds to a statement on a table for a user: the tenant filter,
 * an auto-filter, the soft-delete filter. `apply` adds it to a knex builder whose table is
 * aliased `alias`; `describe` is what `gql explain-policy` prints.
 */
export interface PolicyPredicate {
  rule: 'tenant-filter' | 'auto-filter' | 'soft-delete';
  column: string;
  /** The SQL it adds, with `?` for the bound value (for explain-policy). */
  sql: string;
  bindings: unknown[];
  apply(qb: Knex.QueryBuilder, alias: string): void;
}

export interface RowPolicy {
  predicates: PolicyPredicate[];
  /** Values forced on insert/update (the tenant column, auto-filter columns). */
  forcedValues: Row;
  /** Set when the user may not touch the table at all (tenant claim missing): the reason. */
  denied?: string;
}
