import {readdirSync, readFileSync} from 'node:fs';

/**
 * Whether a pid names a live process — and the same one we recorded. `kill(pid, 0)` alone says
 * yes for a zombie (a SIGKILLed daemon nobody reaped yet) and for an unrelated process that
 * reused the pid, so on Linux /proc is asked too: state Z or X is dead, and a start time that
 * differs from the recorded one is someone else.
 */
export function isAlive(pid: number, startTime?: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(pid);
  if (!stat) return true; // No /proc (macOS): kill's answer is all there is.
  if (stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return false;
  return startTime === undefined || stat.startTime === startTime;
}

/** The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat): with the pid, an identity. */
export function processStartTime(pid: number): string | undefined {
  return procStat(pid)?.startTime;
}

function procStat(pid: number): {state: string; startTime: string; group: string} | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {state: fields[0] ?? '', group: fields[2] ?? '', startTime: fields[19] ?? ''};
}

/** A process group with a live (not zombie) member: a pty child's tree is one group led by the child. */
export function groupAlive(pgid: number): boolean {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  return pids.some((pid) => {
    const stat = procStat(Number(pid));
    return stat !== undefined && stat.group === String(pgid) && stat.state !== 'Z' && stat.state !== 'X';
  });
}
