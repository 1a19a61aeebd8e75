import type {ErrorGroup} from './dedupe.js';

/**
 * Sorting (spec 1, get_errors rule 5): errors before warnings, then most recent first. Ties fall
 * back to the dedupe key so equal inputs always print in the same order.
 */
export function compareGroups(a: ErrorGroup, b: ErrorGroup): number {
  if (a.severity !== b.severity) return a.severity === 'error' ? -1 : 1;
  if (a.lastSeen !== b.lastSeen) return b.lastSeen - a.lastSeen;
  return a.shape.key < b.shape.key ? -1 : a.shape.key > b.shape.key ? 1 : 0;
}
