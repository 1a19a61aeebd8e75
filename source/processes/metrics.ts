import {readFileSync} from 'node:fs';
import {Counter, Gauge, type Registry} from 'prom-client';
import type {Supervisor} from './supervisor.js';
import {parseKey} from './project-key.js';

// Linux's USER_HZ and page size as good as every kernel has them (getconf CLK_TCK, PAGESIZE).
const TICKS_PER_SECOND = 100;
const PAGE_BYTES = 4096;

/** CPU seconds and resident bytes of a process from /proc (Linux); undefined elsewhere or once it is gone. */
export function processUsage(pid: number): {cpuSeconds: number; residentBytes: number} | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const residentPages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    if (!Number.isFinite(ticks) || !Number.isFinite(residentPages)) return undefined;
    return {cpuSeconds: ticks / TICKS_PER_SECOND, residentBytes: residentPages * PAGE_BYTES};
  } catch {
    return undefined;
  }
}

/**
 * The supervised processes and the alert ring, read when scraped: CPU seconds and resident memory
 * per running process (its name: the script name, else its id), the ring's fill, and every alert
 * the scanner reports counted by source and severity in `errors` (repeats included: a rate).
 */
export function supervisorMetrics(registry: Registry, supervisor: Supervisor, errors: Counter<'source' | 'severity'>): () => void {
  const running = () => supervisor.list().filter((info) => info.status === 'running' || info.status === 'starting');
  // One gauge per figure of a running process, each read from /proc when scraped.
  const perProcess = (name: string, help: string, figure: (usage: NonNullable<ReturnType<typeof processUsage>>) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['process'],
      registers: [registry],
      collect() {
        this.reset();
        for (const info of running()) {
          const usage = info.pid === undefined ? undefined : processUsage(info.pid);
          if (usage) this.set({process: info.scriptName ?? info.id}, figure(usage));
        }
      },
    });
  perProcess('workbench_process_cpu_seconds', 'CPU seconds (user + system) a supervised process has used since it started.', (usage) => usage.cpuSeconds);
  perProcess('workbench_process_resident_memory_bytes', 'Resident memory of a supervised process.', (usage) => usage.residentBytes);
  new Gauge({
    name: 'workbench_alert_ring_entries',
    help: 'Alerts the ring holds now.',
    registers: [registry],
    collect() {
      this.set(supervisor.alerts.size);
    },
  });
  new Gauge({
    name: 'workbench_alert_ring_capacity',
    help: 'Alerts the ring can hold before it drops the stalest.',
    registers: [registry],
    collect() {
      this.set(supervisor.alerts.capacity);
    },
  });
  const names = new Map<string, string>();
  return supervisor.alerts.onAlert((alert) => {
    // Looked up per alert: a process's script name is known once it started.
    let name = names.get(alert.processId);
    if (name === undefined) {
      const {project, id} = parseKey(alert.processId);
      name = supervisor.list().find((info) => info.id === id && info.project === project)?.scriptName ?? id;
      names.set(alert.processId, name);
    }
    errors.inc({source: name, severity: alert.severity});
  });
}
