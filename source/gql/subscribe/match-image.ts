import type {FilterInput, GqlTable, Row, RowPolicy} from '../types.js';

/**
 * Whether a deleted row's last image passes a subscriber's rules — the row is gone, so no SQL can
 * say it. Fail-closed: a predicate or filter that cannot be decided from what the image holds
 * (a column the `keys` payload leaves out, a filter through a relationship) does not match.
 */
export function policyAllows(policy: RowPolicy, table: GqlTable, image: Row | undefined, tenant: string | null): boolean {
  if (policy.denied) return false;
  for (const predicate of policy.predicates) {
    if (predicate.rule === 'soft-delete') continue;
    let value = image?.[predicate.column];
    if (value === undefined && predicate.column === table.tenantColumn) value = tenant ?? undefined;
    if (value === undefined || value === null) return false;
    if (!predicate.bindings.some((allowed) => String(allowed) === String(value))) return false;
  }
  return true;
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

function compare(left: unknown, right: unknown): number {
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  const a = Number(left);
  const b = Number(right);
  if (left !== '' && right !== '' && !Number.isNaN(a) && !Number.isNaN(b) && typeof left !== 'boolean') return a - b;
  return text(left) < text(right) ? -1 : text(left) > text(right) ? 1 : 0;
}

/** A `_like` pattern as a regex: `%` any run, `_` one character, the rest literal. */
function likePattern(pattern: string): RegExp {
  const body = [...pattern].map((char) => (char === '%' ? '.*' : char === '_' ? '.' : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`, 's');
}

function operatorMatches(operator: string, value: unknown, operand: unknown): boolean | undefined {
  switch (operator) {
    case '_eq':
      return operand === null ? value === null : value !== null && compare(value, operand) === 0;
    case '_neq':
      return value !== null && operand !== null && compare(value, operand) !== 0;
    case '_gt':
      return value !== null && compare(value, operand) > 0;
    case '_gte':
      return value !== null && compare(value, operand) >= 0;
    case '_lt':
      return value !== null && compare(value, operand) < 0;
    case '_lte':
      return value !== null && compare(value, operand) <= 0;
    case '_in':
      return value !== null && Array.isArray(operand) && operand.some((item) => compare(value, item) === 0);
    case '_nin':
      return value !== null && Array.isArray(operand) && !operand.some((item) => compare(value, item) === 0);
    case '_null':
      return operand === true ? value === null : value !== null;
    case '_between':
      return value !== null && Array.isArray(operand) && compare(value, operand[0]) >= 0 && compare(value, operand[1]) <= 0;
    case '_contains':
      return value !== null && text(value).toLowerCase().includes(text(operand).toLowerCase());
    case '_starts_with':
      return value !== null && text(value).toLowerCase().startsWith(text(operand).toLowerCase());
    case '_ends_with':
      return value !== null && text(value).toLowerCase().endsWith(text(operand).toLowerCase());
    case '_like':
      return value !== null && likePattern(text(operand)).test(text(value));
    default:
      return undefined;
  }
}

/**
 * The GraphQL filter language evaluated on a row image (the same operators as query/filter-sql.ts;
 * text comparisons ignore case, as SQLite's and MariaDB's default collations do). Undecidable →
 * false.
 */
export function filterMatches(table: GqlTable, filter: FilterInput | undefined | null, image: Row | undefined): boolean {
  if (!filter) return true;
  if (!image) return false;
  for (const [field, condition] of Object.entries(filter)) {
    if (condition === undefined || condition === null) continue;
    if (field === 'and') {
      if (!(condition as FilterInput[]).every((part) => filterMatches(table, part, image))) return false;
      continue;
    }
    if (field === 'or') {
      const parts = condition as FilterInput[];
      if (parts.length > 0 && !parts.some((part) => filterMatches(table, part, image))) return false;
      continue;
    }
    const column = table.columns.find((candidate) => candidate.name === field && !candidate.hidden);
    if (!column || !(column.dbName in image)) return false;
    const value = image[column.dbName] ?? null;
    for (const [operator, operand] of Object.entries(condition as Record<string, unknown>)) {
      if (operand === undefined) continue;
      if (operatorMatches(operator, value, operand) !== true) return false;
    }
  }
  return true;
}
