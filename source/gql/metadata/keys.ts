/**
 * The core metadata keys, in one place (as upstream keeps them), with where each may be written.
 * The surfaces keep their own key families beside their code and check them at load: `eav-*`
 * (eav/), `file`/`storage`/… (files/), `feed-*` (feed-surface/), `chat-*` (chat/). A key of no
 * family is kept verbatim in `meta` and never rejected.
 */
export const KEY = {
  tenantFilter: 'tenant-filter',
  tenantContextKey: 'tenant-context-key',
  autoFilter: 'auto-filter',
  autoFilterBypassRole: 'auto-filter-bypass-role',
  softDelete: 'soft-delete',
  softDeleteBy: 'soft-delete-by',
  deleteType: 'delete-type',
  populate: 'populate',
  update: 'update',
  visibility: 'visibility',
  label: 'label',
  join: 'join',
  manyToMany: 'many-to-many',
  autoJoin: 'auto-join',
  foreignJoins: 'foreign-joins',
  dePluralize: 'de-pluralize',
  conventions: 'conventions',
  defaultLimit: 'default-limit',
  maxQueryRows: 'max-query-rows',
  maxQueryCost: 'max-query-cost',
  maxQueryDepth: 'max-query-depth',
  statementTimeout: 'statement-timeout',
  batchMaxSize: 'batch-max-size',
  bulkBatchThreshold: 'bulk-batch-threshold',
  batchDuplicatePolicy: 'batch-duplicate-policy',
  filteredUpdate: 'filtered-update',
  filteredUpdateMaxAffected: 'filtered-update-max-affected',
  rawSql: 'raw-sql',
  rawSqlRole: 'raw-sql-role',
  rawSqlTimeout: 'raw-sql-timeout',
  rawSqlMaxRows: 'raw-sql-max-rows',
  genericTable: 'generic-table',
  genericTableRole: 'generic-table-role',
  genericTableMaxRows: 'generic-table-max-rows',
  genericTableAllowed: 'generic-table-allowed',
  genericTableDenied: 'generic-table-denied',
  schemaPrefix: 'schema-prefix',
  schemaPrefixDefault: 'schema-prefix-default',
  schemaPrefixFormat: 'schema-prefix-format',
  schemaDisplay: 'schema-display',
  schemaDefault: 'schema-default',
  schemaExcluded: 'schema-excluded',
  spInclude: 'sp-include',
  spExclude: 'sp-exclude',
  emitEvents: 'emit-events',
  eventSink: 'event-sink',
  eventPayload: 'event-payload',
  outboxTable: 'outbox-table',
  webhookSecret: 'webhook-secret',
  subscriptionTables: 'subscription-tables',
  subscriptionTenant: 'subscription-tenant',
  subscriptionRedact: 'subscription-redact',
} as const;

/** The `subscription-*` keys the spec defines; any other key of that family fails at model load. */
export const SUBSCRIPTION_KEYS: ReadonlySet<string> = new Set([KEY.subscriptionTables, KEY.subscriptionTenant, KEY.subscriptionRedact]);

export type Scope = 'model' | 'table' | 'column';

/** Where each key of this issue applies (the spec's "Applies to" column). */
export const KEY_SCOPES: Record<string, Scope[]> = {
  [KEY.tenantFilter]: ['table'],
  [KEY.tenantContextKey]: ['model'],
  [KEY.autoFilter]: ['table'],
  [KEY.autoFilterBypassRole]: ['model'],
  [KEY.softDelete]: ['table'],
  [KEY.softDeleteBy]: ['table'],
  [KEY.deleteType]: ['table'],
  [KEY.populate]: ['column'],
  [KEY.update]: ['column'],
  [KEY.visibility]: ['table', 'column'],
  [KEY.label]: ['table'],
  [KEY.join]: ['table', 'column'],
  [KEY.manyToMany]: ['table'],
  [KEY.autoJoin]: ['model', 'table'],
  [KEY.foreignJoins]: ['model'],
  [KEY.dePluralize]: ['model'],
  [KEY.conventions]: ['model'],
  [KEY.defaultLimit]: ['model', 'table'],
  [KEY.maxQueryRows]: ['model'],
  [KEY.maxQueryCost]: ['model'],
  [KEY.maxQueryDepth]: ['model'],
  [KEY.statementTimeout]: ['model'],
  [KEY.batchMaxSize]: ['table'],
  [KEY.bulkBatchThreshold]: ['table'],
  [KEY.batchDuplicatePolicy]: ['table'],
  [KEY.filteredUpdate]: ['table'],
  [KEY.filteredUpdateMaxAffected]: ['table'],
  [KEY.rawSql]: ['model'],
  [KEY.rawSqlRole]: ['model'],
  [KEY.rawSqlTimeout]: ['model'],
  [KEY.rawSqlMaxRows]: ['model'],
  [KEY.genericTable]: ['model'],
  [KEY.genericTableRole]: ['model'],
  [KEY.genericTableMaxRows]: ['model'],
  [KEY.genericTableAllowed]: ['model'],
  [KEY.genericTableDenied]: ['model'],
  [KEY.schemaPrefix]: ['model'],
  [KEY.schemaPrefixDefault]: ['model'],
  [KEY.schemaPrefixFormat]: ['model'],
  [KEY.schemaDisplay]: ['model'],
  [KEY.schemaDefault]: ['model'],
  [KEY.schemaExcluded]: ['model'],
  [KEY.spInclude]: ['model'],
  [KEY.spExclude]: ['model'],
  [KEY.emitEvents]: ['table'],
  [KEY.eventSink]: ['table'],
  [KEY.eventPayload]: ['table'],
  [KEY.outboxTable]: ['model'],
  [KEY.webhookSecret]: ['model'],
  [KEY.subscriptionTables]: ['model'],
  [KEY.subscriptionTenant]: ['model'],
  [KEY.subscriptionRedact]: ['model'],
};

/** Keys whose values accumulate comma-joined across rules instead of the last writer winning (spec rule 8). */
export const ACCUMULATING_KEYS = new Set<string>([KEY.join, KEY.manyToMany]);

/** Spec rule 9: accepted spellings and the stored one. */
export const KEY_SPELLINGS: Record<string, string> = {'min-length': 'minlength', 'max-length': 'maxlength'};

export const ROOT_SELECTOR = ':root';
