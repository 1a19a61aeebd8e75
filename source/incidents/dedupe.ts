import type {ErrorShape, IncidentKind} from './shape.js';
import type {Severity} from './types.js';

/**
 * Deduplication (spec 1, get_errors rule 1): occurrences with equal source, category, message and
 * location become one entry whose count is their sum and whose last_seen is the latest.
 */

export interface ErrorGroup {
  shape: ErrorShape;
  /** `error` when any merged occurrence was an error. */
  severity: Severity;
  kind: IncidentKind;
  /** The page of the most recent occurrence (pages are not part of the key). */
  page: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
}

export class Deduper {
  private readonly byKey = new Map<string, ErrorGroup>();

  add(shape: ErrorShape, count: number, firstSeen: number, lastSeen: number): void {
    const group = this.byKey.get(shape.key);
    if (!group) {
      this.byKey.set(shape.key, {shape, severity: shape.severity, kind: shape.kind, page: shape.page, count, firstSeen, lastSeen});
      return;
    }
    group.count += count;
    if (firstSeen < group.firstSeen) group.firstSeen = firstSeen;
    if (lastSeen >= group.lastSeen) {
      group.lastSeen = lastSeen;
      if (shape.page) group.page = shape.page;
    }
    if (shape.severity === 'error' && group.severity !== 'error') {
      group.severity = 'error';
      group.kind = shape.kind;
    }
  }

  groups(): ErrorGroup[] {
    return [...this.byKey.values()];
  }
}
