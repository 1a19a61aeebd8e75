import {WorkbenchError} from '../../core/errors.js';
import type {GqlModel, GqlTable} from '../types.js';

/** `limit: -1` asks for every row (still clamped by `max-query-rows`). */
export const NO_LIMIT = -1;

/**
 * The rows a collection returns, as the spec says: an unspecified limit is the table's
 * `default-limit`, else the model's (100 unless set); `-1` is no limit; the result is clamped by
 * `max-query-rows` — at the root, per parent on nested collections (`where` only names which,
 * for the message). Any other negative limit is the caller's error.
 */
export function effectiveLimit(model: GqlModel, table: GqlTable, requested: unknown, where: 'root' | 'per parent' | 'per group'): number {
  void where;
  let limit: number;
  if (requested === undefined || requested === null) limit = table.defaultLimit ?? model.defaultLimit;
  else if (typeof requested !== 'number' || !Number.isInteger(requested)) throw new WorkbenchError('invalid_argument', `limit must be a whole number, not ${String(requested)}`);
  else if (requested === NO_LIMIT) limit = model.maxQueryRows;
  else if (requested < 0) throw new WorkbenchError('invalid_argument', `limit must be ≥ 0, or -1 for no limit (clamped to ${model.maxQueryRows} rows); got ${requested}`);
  else limit = requested;
  return Math.min(limit, model.maxQueryRows);
}
