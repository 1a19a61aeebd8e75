import {EventEmitter} from 'node:events';
import {coalesce, type Coalesced} from '../core/coalesce.js';
import type {LoggedEntry, ProxyChange, ProxyManager} from '../devproxy/manager.js';
import type {TrafficEntry} from '../devproxy/types.js';
import {customLogShape, diagnosticShape, httpShape} from '../incidents/normalize.js';
import {ReadMarks} from '../incidents/seen.js';
import type {ErrorSources} from '../incidents/types.js';
import {parseKey, shortId} from '../processes/project-key.js';
import type {Supervisor} from '../processes/supervisor.js';

/** What changed since the last `changed`: the processes whose alerts and the proxies whose errors did. */
export interface InboxChange {
  processes: string[];
  proxies: string[];
}

interface InboxEvents {
  changed: [InboxChange];
}

// A burst (a page failing every request, a log line per millisecond) is one event now and one at
// its end, never one per entry; the TUI coalesces again (daemonWatch), well within a second.
const INBOX_COALESCE_MS = 100;

/**
 * The daemon's error inbox: one object over every source of spec 1 — the process alert ring and
 * each running proxy's traffic log (HTTP errors, transport errors, diagnostics, browser errors,
 * custom logs) — and the read marks. get_errors, get_incidents (CLI, MCP, TUI) read `sources()`;
 * every change that alters what they list is announced once, as `changed`: an alert added,
 * repeated or cleared, an error-bearing entry logged or pushed out of a full log, a proxy holding
 * errors stopped. A 200 is not news, nor is a proxy's `page` entry.
 */
export class Inbox extends EventEmitter<InboxEvents> {
  /** Read marks (get_incidents `unread`, `mark_read`), shared by every client of the daemon. */
  readonly marks = new ReadMarks();
  // How many error-bearing entries each proxy's log holds: a stopped proxy takes them along.
  private readonly held = new Map<string, number>();
  private processes = new Set<string>();
  private proxyIds = new Set<string>();
  private readonly announce: Coalesced;
  private readonly offs: Array<() => void> = [];

  constructor(
    private readonly supervisor: Supervisor,
    private readonly proxies: ProxyManager,
    options: {coalesceMs?: number} = {},
  ) {
    super();
    // Every daemon connection listens; the default cap of 10 is no leak here.
    this.setMaxListeners(0);
    this.announce = coalesce(() => this.flush(), options.coalesceMs ?? INBOX_COALESCE_MS);
    this.offs.push(supervisor.alerts.onChange((processId) => this.touch(this.processes, processId)));
    const onEntry = ({proxyId, entry, dropped}: LoggedEntry) => {
      const added = bearsError(entry);
      const lost = dropped !== undefined && bearsError(dropped);
      if (!added && !lost) return;
      this.held.set(proxyId, (this.held.get(proxyId) ?? 0) + Number(added) - Number(lost));
      this.touch(this.proxyIds, proxyId);
    };
    const onProxy = ({proxy, running}: ProxyChange) => {
      const held = this.held.get(proxy.id) ?? 0;
      this.held.delete(proxy.id);
      if (!running && held > 0) this.touch(this.proxyIds, proxy.id);
    };
    proxies.on('entry', onEntry);
    proxies.on('change', onProxy);
    this.offs.push(
      () => proxies.off('entry', onEntry),
      () => proxies.off('change', onProxy),
    );
  }

  /**
   * What the inbox holds now, as queryErrors and queryIncidents take it, seen from `project`:
   * its processes' alerts and those of the `shared` projects' (the home's services), under their
   * short ids; another project's never. Alerts carry their project, so an incident's id tells
   * two projects' `web` apart. Every proxy is seen from every project.
   */
  sources(project = '', shared: string[] = []): ErrorSources {
    const seen = (key: string) => {
      const owner = parseKey(key).project;
      return owner === project || shared.includes(owner);
    };
    return {
      processAlerts: this.supervisor.alerts
        .list()
        .filter((alert) => seen(alert.processId))
        .map((alert) => ({...alert, processId: parseKey(alert.processId).id, project: parseKey(alert.processId).project})),
      proxies: this.proxies.records(),
      processIds: this.supervisor.ids().filter(seen).map(shortId),
      processRuns: Object.fromEntries(
        Object.entries(this.supervisor.runs())
          .filter(([key]) => seen(key))
          .map(([key, run]) => [shortId(key), run]),
      ),
    };
  }

  close(): void {
    for (const off of this.offs.splice(0)) off();
    this.announce.cancel();
  }

  private touch(ids: Set<string>, id: string): void {
    ids.add(id);
    this.announce();
  }

  private flush(): void {
    if (this.processes.size === 0 && this.proxyIds.size === 0) return;
    const change: InboxChange = {processes: [...this.processes], proxies: [...this.proxyIds]};
    this.processes = new Set();
    this.proxyIds = new Set();
    this.emit('changed', change);
  }
}

/** Whether get_errors would list the entry (its noise filter and severity rules included). */
export function bearsError(entry: TrafficEntry): boolean {
  switch (entry.type) {
    case 'http':
      // Cheap check first: most traffic is 2xx/3xx and never needs a shape.
      return (entry.status === 0 || (entry.status >= 400 && entry.status <= 599)) && httpShape(entry) !== null;
    case 'error':
      return true;
    case 'custom':
      return customLogShape(entry) !== null;
    case 'diagnostic':
      return diagnosticShape(entry) !== null;
    default:
      return false;
  }
}
