import {WorkbenchError} from '../../core/errors.js';
import type {GqlModel, GqlTable, PolicyOperation, PopulateKind, Row, UserContext} from '../types.js';
import {rowPolicy} from './row-policy.js';

const OPERATIONS: PolicyOperation[] = ['read', 'insert', 'update', 'delete'];

export interface ExplainedPredicate {
  rule: 'tenant-filter' | 'auto-filter' | 'soft-delete';
  column: string;
  sql: string;
  bindings: unknown[];
}

export interface ExplainedOperation {
  operation: PolicyOperation;
  /** Why the user may not do this at all (a claim missing, a keyless table, a view). */
  denied?: string;
  /** The predicates every statement of this operation carries. */
  predicates: ExplainedPredicate[];
  /** Values written whatever the request says (insert/update). */
  forcedValues: Row;
  /** What else the rules do to this operation: populated columns, a soft delete turned into an update. */
  notes: string[];
}

export interface ExplainedTable {
  table: string;
  key: string;
  hidden: boolean;
  hiddenColumns: string[];
  readOnlyColumns: string[];
  /** Auto-filters the user's role lets them skip. */
  bypassedAutoFilters: Array<{column: string; claim: string}>;
  operations: ExplainedOperation[];
}

export interface PolicyExplanation {
  user: {anonymous: boolean; roles: string[]; claims: Record<string, unknown>};
  tenantContextKey: string;
  roleGates: Array<{gate: string; enabled: boolean; role?: string; allowed: boolean}>;
  tables: ExplainedTable[];
}

/**
 * "Why can't this user see that row?": per table and operation, the metadata rules that apply
 * to `user` and the SQL predicate each adds — read from rowPolicy(), the same function every
 * statement the service sends is filtered by, so the explanation cannot drift from the behaviour.
 */
export function explainPolicy(model: GqlModel, user: UserContext, tableName?: string): PolicyExplanation {
  const tables = tableName === undefined ? model.tables.filter((table) => !table.hidden) : [findTable(model, tableName)];
  const bypass = model.autoFilterBypassRole !== undefined && user.roles.includes(model.autoFilterBypassRole);
  return {
    user: {anonymous: user.anonymous, roles: user.roles, claims: user.claims},
    tenantContextKey: model.tenantContextKey,
    roleGates: [
      {gate: '_rawQuery (raw-sql)', enabled: model.rawSql.enabled, role: model.rawSql.role, allowed: model.rawSql.enabled && user.roles.includes(model.rawSql.role)},
      {
        gate: '_table (generic-table)',
        enabled: model.genericTable.enabled,
        role: model.genericTable.role,
        allowed: model.genericTable.enabled && user.roles.includes(model.genericTable.role),
      },
      ...(model.autoFilterBypassRole ? [{gate: 'auto-filter bypass (auto-filter-bypass-role)', enabled: true, role: model.autoFilterBypassRole, allowed: bypass}] : []),
    ],
    tables: tables.map((table) => ({
      table: table.name,
      key: table.key,
      hidden: table.hidden,
      hiddenColumns: table.columns.filter((column) => column.hidden).map((column) => column.dbName),
      readOnlyColumns: table.columns.filter((column) => column.readOnly).map((column) => column.dbName),
      bypassedAutoFilters: bypass ? table.autoFilters : [],
      operations: OPERATIONS.map((operation) => explainOperation(model, table, user, operation)),
    })),
  };
}

function explainOperation(model: GqlModel, table: GqlTable, user: UserContext, operation: PolicyOperation): ExplainedOperation {
  const policy = rowPolicy(model, table, user, operation);
  const notes: string[] = [];
  let denied = policy.denied;
  if (table.hidden) denied ??= `${table.key} is hidden (visibility: hidden): it is not in the schema`;
  if (operation !== 'read' && table.isView) denied ??= `${table.key} is a view: no mutations`;
  if ((operation === 'update' || operation === 'delete') && table.primaryKey.length === 0) denied ??= `${table.key} has no primary key: rows cannot be addressed`;
  const populated = (kinds: PopulateKind[]) => table.columns.filter((column) => column.populate && kinds.includes(column.populate));
  if (operation === 'insert')
    for (const column of populated(['created-by', 'updated-by', 'created-on', 'updated-on'])) notes.push(`${column.dbName} is filled (populate: ${column.populate})`);
  if (operation === 'update') {
    for (const column of populated(['updated-by', 'updated-on'])) notes.push(`${column.dbName} is filled (populate: ${column.populate})`);
    if (table.columns.some((column) => column.readOnly))
      notes.push(
        `read-only (update: none): ${table.columns
          .filter((column) => column.readOnly)
          .map((column) => column.dbName)
          .join(', ')}`,
      );
    if (table.filteredUpdate) notes.push(`updateWhere allowed (filtered-update), at most ${table.filteredUpdateMaxAffected} rows`);
  }
  if (operation === 'delete' && table.deleteType === 'soft' && table.softDelete) {
    const by = table.softDelete.byColumn ? ` and ${table.softDelete.byColumn} = the user` : '';
    notes.push(`soft delete: sets ${table.softDelete.column} = now${by} instead of deleting`);
  }
  return {
    operation,
    ...(denied ? {denied} : {}),
    predicates: policy.predicates.map(({rule, column, sql, bindings}) => ({rule, column, sql, bindings})),
    forcedValues: policy.forcedValues,
    notes,
  };
}

/** By GraphQL name, database name or `schema.table`, case-insensitive. */
function findTable(model: GqlModel, name: string): GqlTable {
  const lower = name.toLowerCase();
  const found =
    model.tables.find((table) => table.name === name) ??
    model.tables.find((table) => table.key.toLowerCase() === lower) ??
    model.tables.find((table) => table.name.toLowerCase() === lower || table.dbName.toLowerCase() === lower);
  if (!found) throw new WorkbenchError('not_found', `no table ${name} in the model (tables: ${[...model.byName.keys()].slice(0, 20).join(', ')})`);
  return found;
}

/**
 * A user from claims given on the command line (`--claims '{"tenant_id": 1, "roles": ["admin"]}'`):
 * roles from `roles`/`role` (a string or a list), the audit key from `sub`, `name` or `email`.
 */
export function userFromClaimsJson(text: string | undefined): UserContext {
  if (text === undefined) return {claims: {}, roles: [], anonymous: true};
  let claims: unknown;
  try {
    claims = JSON.parse(text);
  } catch (error) {
    throw new WorkbenchError('invalid_argument', `--claims is not valid JSON: ${(error as Error).message}`);
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) throw new WorkbenchError('invalid_argument', '--claims must be a JSON object of claims');
  const record = claims as Record<string, unknown>;
  const roles = [record.roles, record.role].flatMap((value) =>
    typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [],
  );
  const auditKey = [record.sub, record.name, record.email].find((value) => typeof value === 'string');
  return {claims: record, roles, ...(auditKey ? {auditKey: auditKey as string} : {}), anonymous: Object.keys(record).length === 0};
}
