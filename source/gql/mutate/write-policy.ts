import {WorkbenchError} from '../../core/errors.js';
import {rowPolicy} from '../policy/row-policy.js';
import type {GqlModel, GqlTable, PolicyOperation, PolicyPredicate, Row, RowPolicy, UserContext} from '../types.js';

/**
 * The row policy of one write, refused outright when the user may not touch the table (a
 * tenant-isolated table and no tenant claim): fail closed, never write unfiltered.
 */
export function writePolicy(model: GqlModel, table: GqlTable, user: UserContext, op: PolicyOperation): RowPolicy {
  const policy = rowPolicy(model, table, user, op);
  if (policy.denied !== undefined) throw new WorkbenchError('forbidden', policy.denied);
  return policy;
}

/** The predicates that pin a column to values (tenant filter, auto-filters): a written value must be one of them. */
function pinning(policy: RowPolicy): PolicyPredicate[] {
  return policy.predicates.filter((predicate) => predicate.rule !== 'soft-delete');
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (a !== null && b !== null && a !== undefined && b !== undefined && String(a) === String(b));
}

/**
 * A new row (insert, or the insert half of an upsert) with the policy's forced values written
 * in: the user's own tenant, whatever the client sent. A client sending another tenant (or an
 * auto-filtered value outside its claim) is refused rather than silently rewritten, so a
 * cross-tenant attempt is visible to the caller.
 */
export function withForcedValues(table: GqlTable, row: Row, policy: RowPolicy): Row {
  const written: Row = {...row};
  for (const [column, value] of Object.entries(policy.forcedValues)) {
    if (column in written && !sameValue(written[column], value)) throw crossScope(table, column);
    written[column] = value;
  }
  for (const predicate of pinning(policy)) {
    const value = written[predicate.column];
    if (!predicate.bindings.some((allowed) => sameValue(allowed, value))) throw crossScope(table, predicate.column);
  }
  return written;
}

/**
 * The set of an update with the pinned columns checked: setting the tenant column to the user's
 * own tenant is a no-op (dropped), to any other value refused: a row never moves out of scope.
 */
export function checkedSet(table: GqlTable, set: Row, policy: RowPolicy): Row {
  const checked: Row = {...set};
  for (const predicate of pinning(policy)) {
    if (!(predicate.column in checked)) continue;
    const value = checked[predicate.column];
    if (!predicate.bindings.some((allowed) => sameValue(allowed, value))) throw crossScope(table, predicate.column);
    if (predicate.column in policy.forcedValues) delete checked[predicate.column];
  }
  return checked;
}

function crossScope(table: GqlTable, column: string): WorkbenchError {
  const name = table.columns.find((candidate) => candidate.dbName === column)?.name ?? column;
  return new WorkbenchError('forbidden', `${table.name}.${name} is pinned by a row policy (tenant-filter / auto-filter): it may only take the value(s) of your own claims`);
}
