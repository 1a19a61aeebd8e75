import {WorkbenchError} from '../core/errors.js';
import {collectGroups} from './collect.js';
import type {ErrorGroup} from './dedupe.js';
import {resolveScope} from './scope.js';
import {parseSince} from './since.js';
import {toRfc3339} from './timestamp.js';
import {DEFAULT_LIMIT} from './error-query.js';
import type {ErrorQuery, ErrorSources, UnifiedError} from './types.js';

export {DEFAULT_LIMIT};

/**
 * get_errors (spec 1): the unified error view of everything in `sources`, deduplicated, noise
 * dropped, errors first then most recent, at most `limit` entries. Throws WorkbenchError
 * `invalid_argument` for a bad limit, since or include_warnings, `not_found` for a process id
 * `sources.processIds` does not know, `proxy_not_found` for an unknown proxy id.
 */
export function queryErrors(sources: ErrorSources, query: ErrorQuery = {}, now = Date.now()): UnifiedError[] {
  const limit = parseLimit(query.limit);
  const includeWarnings = parseIncludeWarnings(query.include_warnings);
  const cutoff = parseOptionalSince(query.since, now);
  const scope = resolveScope(sources, query.process_id, query.proxy_id);
  const groups = collectGroups(sources, {scope, cutoff, includeWarnings});
  const count = Math.min(limit, groups.length);
  const errors = new Array<UnifiedError>(count);
  for (let index = 0; index < count; index += 1) errors[index] = toUnifiedError(groups[index]);
  return errors;
}

/** One raw-output element; the literal fixes the spec's field order. */
export function toUnifiedError(group: ErrorGroup): UnifiedError {
  return {
    source: group.shape.source,
    severity: group.severity,
    category: group.shape.category,
    message: group.shape.message,
    location: group.shape.location,
    page: group.page,
    count: group.count,
    last_seen: toRfc3339(group.lastSeen),
  };
}

/** No since (or an empty one) means no recency filter. */
export function parseOptionalSince(since: unknown, now: number): number {
  if (since === undefined || since === null) return Number.NEGATIVE_INFINITY;
  if (typeof since === 'string' && since.trim() === '') return Number.NEGATIVE_INFINITY;
  return parseSince(since as string, now);
}

function parseLimit(limit: unknown): number {
  if (limit === undefined || limit === null) return DEFAULT_LIMIT;
  if (typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0) return limit;
  throw new WorkbenchError('invalid_argument', `invalid limit ${JSON.stringify(limit) ?? String(limit)}: use a positive whole number such as ${DEFAULT_LIMIT}`);
}

function parseIncludeWarnings(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'boolean') return value;
  throw new WorkbenchError('invalid_argument', `invalid include_warnings ${JSON.stringify(value) ?? String(value)}: use true or false`);
}
