import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {writeFileAtomic} from '../core/atomic-write.js';
import type {ProcessInfo} from '../processes/types.js';
import {groupAlive, isAlive, processStartTime} from './liveness.js';
import type {SurvivingProcess} from './protocol/daemon.js';

interface Recorded extends SurvivingProcess {
  startTime?: string;
}

/**
 * The pids of the daemon's running children, kept in `WORKBENCH_HOME/processes.json`. A daemon
 * killed with SIGKILL cannot stop them, and some (those that ignore the pty's hangup) live on:
 * the next daemon reads the file and reports them by pid instead of calling them gone.
 */
export class ProcessRecord {
  private readonly path: string;
  private survivors: Recorded[];
  private readonly startTimes = new Map<number, string | undefined>();

  constructor(home: string) {
    this.path = join(home, 'processes.json');
    this.survivors = readRecorded(this.path).filter(stillRunning);
  }

  /** Processes of an earlier daemon that still run. */
  list(): SurvivingProcess[] {
    this.survivors = this.survivors.filter(stillRunning);
    return this.survivors.map(({id, pid, command}) => ({id, pid, command}));
  }

  /** Rewrites the file (temp file, then rename) with the running processes and the survivors; a failure is only logged. */
  save(processes: ProcessInfo[]): void {
    const running: Recorded[] = [];
    for (const info of processes) {
      if (info.pid === undefined || (info.status !== 'running' && info.status !== 'starting')) continue;
      if (!this.startTimes.has(info.pid)) this.startTimes.set(info.pid, processStartTime(info.pid));
      running.push({id: info.id, pid: info.pid, command: info.command, startTime: this.startTimes.get(info.pid)});
    }
    for (const pid of this.startTimes.keys()) if (!running.some((entry) => entry.pid === pid)) this.startTimes.delete(pid);
    try {
      // The temp file is removed when it fails: a full disk keeps no half-written leftovers.
      writeFileAtomic(this.path, JSON.stringify([...this.survivors.filter(stillRunning), ...running], null, 2) + '\n');
    } catch (error) {
      // A full disk or a deleted home must not take the daemon down; the record is a courtesy.
      process.stderr.write(`workbench daemon: could not write ${this.path}: ${(error as Error).message}\n`);
    }
  }
}

function readRecorded(path: string): Recorded[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((entry): entry is Recorded => typeof entry?.id === 'string' && Number.isSafeInteger(entry?.pid) && entry.pid > 0 && typeof entry?.command === 'string');
  } catch {
    return [];
  }
}

/** The recorded leader itself, or — when it was a shell that exited — its process group. */
function stillRunning(entry: Recorded): boolean {
  return isAlive(entry.pid, entry.startTime) || (entry.pid !== process.pid && groupAlive(entry.pid));
}
