import {readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {ensureHome, workbenchHome} from '../../core/paths.js';

/** What `workbench serve reader` leaves in WORKBENCH_HOME so other commands and the TUI find it. */
export interface ReaderServerState {
  url: string;
  pid: number;
  db: string | null;
  startedAt: string;
}

export function readerStatePath(home = workbenchHome()): string {
  return join(home, 'reader.json');
}

export function writeServerState(state: Omit<ReaderServerState, 'pid' | 'startedAt'> & Partial<ReaderServerState>): ReaderServerState {
  const full: ReaderServerState = {pid: process.pid, startedAt: new Date().toISOString(), ...state};
  writeFileSync(join(ensureHome(), 'reader.json'), JSON.stringify(full, null, 2) + '\n', {mode: 0o600});
  return full;
}

/** Removes reader.json when it is this process's (a newer server may have replaced it). */
export function clearServerState(pid = process.pid): void {
  if (readServerState()?.pid === pid) rmSync(readerStatePath(), {force: true});
}

export function readServerState(): ReaderServerState | undefined {
  try {
    const state = JSON.parse(readFileSync(readerStatePath(), 'utf8')) as Partial<ReaderServerState>;
    return typeof state.url === 'string' && typeof state.pid === 'number' ? (state as ReaderServerState) : undefined;
  } catch {
    return undefined;
  }
}
