import {createHash} from 'node:crypto';
import type {ProcessAlert, ScannedAlert} from '../incidents/types.js';

/**
 * The daemon's process alert store: a ring of at most 500 entries (spec 1). A repeat of an alert
 * already held (same process, category, message, location) bumps its count instead of taking a slot.
 * Alerts outlive a restart of their process: each carries the run it was last seen in
 * (`beginRun`), so the crash that caused a restart stays in the inbox, marked with its run.
 */
export class AlertStore {
  private entries: ProcessAlert[] = [];
  private readonly byKey = new Map<string, ProcessAlert>();
  private readonly runs = new Map<string, number>();
  private listeners = new Set<(alert: ProcessAlert) => void>();
  private changeListeners = new Set<(processId: string, size: number) => void>();

  constructor(readonly capacity = 500) {}

  /** A process (re)starts: its later alerts belong to `run`; the ones held stay, with their run. */
  beginRun(processId: string, run: number): void {
    this.runs.set(processId, run);
    // The held alerts now read as from an earlier run: whoever shows them looks again.
    if (this.entries.some((entry) => entry.processId === processId)) this.changed(processId);
  }

  /** The current run of every process that began one. */
  currentRuns(): Record<string, number> {
    return Object.fromEntries(this.runs);
  }

  add(processId: string, alert: ScannedAlert, now = Date.now()): ProcessAlert {
    const key = alertKey(processId, alert);
    const existing = this.byKey.get(key);
    const run = this.runs.get(processId) ?? 1;
    if (existing) {
      existing.count += 1;
      existing.lastSeen = now;
      existing.run = run;
      existing.raw = alert.raw;
      if (alert.frames) existing.frames = alert.frames;
      else delete existing.frames;
      // Move to the newest end so the ring drops the stalest entries first.
      const index = this.entries.indexOf(existing);
      if (index >= 0) this.entries.splice(index, 1);
      this.entries.push(existing);
      this.emit(existing);
      return existing;
    }
    const entry: ProcessAlert = {...alert, id: shortHash(key), processId, run, count: 1, firstSeen: now, lastSeen: now};
    this.entries.push(entry);
    this.byKey.set(key, entry);
    while (this.entries.length > this.capacity) {
      const dropped = this.entries.shift()!;
      this.byKey.delete(alertKey(dropped.processId, dropped));
    }
    this.emit(entry);
    return entry;
  }

  /** A build-success line: that process's older compile errors are fixed. */
  clearCompileErrors(processId: string): number {
    const before = this.entries.length;
    this.entries = this.entries.filter((entry) => {
      const drop = entry.processId === processId && entry.compile;
      if (drop) this.byKey.delete(alertKey(entry.processId, entry));
      return !drop;
    });
    const cleared = before - this.entries.length;
    if (cleared > 0) this.changed(processId);
    return cleared;
  }

  /** The process is forgotten (`proc remove`): its alerts and its run count go. */
  clearProcess(processId: string): void {
    this.runs.delete(processId);
    const before = this.entries.length;
    this.entries = this.entries.filter((entry) => {
      if (entry.processId === processId) this.byKey.delete(alertKey(entry.processId, entry));
      return entry.processId !== processId;
    });
    if (this.entries.length !== before) this.changed(processId);
  }

  list(processId?: string): ProcessAlert[] {
    return processId ? this.entries.filter((entry) => entry.processId === processId) : [...this.entries];
  }

  get size(): number {
    return this.entries.length;
  }

  onAlert(listener: (alert: ProcessAlert) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Any change of the ring: an alert added or repeated, alerts cleared; with the ring's size after it. */
  onChange(listener: (processId: string, size: number) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private emit(alert: ProcessAlert): void {
    for (const listener of this.listeners) listener(alert);
    this.changed(alert.processId);
  }

  private changed(processId: string): void {
    for (const listener of this.changeListeners) listener(processId, this.entries.length);
  }
}

function alertKey(processId: string, alert: Pick<ScannedAlert, 'category' | 'message' | 'location'>): string {
  return `${processId}\u0000${alert.category}\u0000${alert.message}\u0000${alert.location}`;
}

function shortHash(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 10);
}
