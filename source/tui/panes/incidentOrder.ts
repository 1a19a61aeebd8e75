import type {UnifiedError} from '../../incidents/types.js';

/** Identity of an incident across polls: the fields get-errors dedupes on. */
export function incidentKey(entry: UnifiedError): string {
  return [entry.source, entry.category, entry.message, entry.location].join('\u0000');
}

/** Newest first, errors before warnings when seen at the same time. */
export function newestFirst(entries: UnifiedError[]): UnifiedError[] {
  const time = (entry: UnifiedError) => {
    const at = Date.parse(entry.last_seen);
    return Number.isNaN(at) ? 0 : at;
  };
  return [...entries].sort((a, b) => time(b) - time(a) || (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
}
