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
  /**
   * The place of its latest occurrence among all added, in the order they were added (the order
   * they arrived in): breaks ties of lastSeen, which lines read in one chunk share.
   */
  lastOrder: number;
  /** Process alerts: the latest run they were seen in, when earlier than the process's current run. */
  olderRun?: number;
  /** Process alerts: the stack frames of the most recent occurrence. */
  frames?: string[];
  /** Some occurrence came from the process's current run. */
  runSeenCurrent?: boolean;
}

/** What a process alert adds to its occurrence (get_incidents shows it; get_errors does not). */
export interface OccurrenceExtra {
  run: number;
  currentRun: number;
  frames?: string[];
}

export class Deduper {
  private readonly byKey = new Map<string, ErrorGroup>();
  private added = 0;

  add(shape: ErrorShape, count: number, firstSeen: number, lastSeen: number, extra?: OccurrenceExtra): void {
    const group = this.byKey.get(shape.key);
    const order = this.added++;
    if (!group) {
      const created: ErrorGroup = {shape, severity: shape.severity, kind: shape.kind, page: shape.page, count, firstSeen, lastSeen, lastOrder: order};
      if (extra) applyExtra(created, extra, true);
      this.byKey.set(shape.key, created);
      return;
    }
    group.count += count;
    if (firstSeen < group.firstSeen) group.firstSeen = firstSeen;
    const latest = lastSeen >= group.lastSeen;
    if (latest) {
      group.lastSeen = lastSeen;
      group.lastOrder = order;
      if (shape.page) group.page = shape.page;
    }
    if (extra) applyExtra(group, extra, latest);
    if (shape.severity === 'error' && group.severity !== 'error') {
      group.severity = 'error';
      group.kind = shape.kind;
    }
  }

  groups(): ErrorGroup[] {
    return [...this.byKey.values()];
  }
}

/** An occurrence in the current run clears the older-run mark; the latest occurrence's frames win. */
function applyExtra(group: ErrorGroup, extra: OccurrenceExtra, latest: boolean): void {
  const older = extra.run < extra.currentRun ? extra.run : undefined;
  if (latest && extra.frames?.length) group.frames = extra.frames;
  if (older === undefined) {
    group.olderRun = undefined;
    group.runSeenCurrent = true;
  } else if (!group.runSeenCurrent) group.olderRun = Math.max(group.olderRun ?? 0, older);
}
