import {EventEmitter} from 'node:events';
import {WorkbenchError} from '../core/errors.js';
import {proxyNotFound} from '../incidents/error-response.js';
import type {ProxyRecords} from '../incidents/types.js';
import {isHttpUrl, PROXY_ID_PATTERN} from './params.js';
import type {DevProxy, ExecResult, PageSession, ProxyInfo, ProxyOptions, TrafficEntry, TrafficQuery} from './types.js';

/** Starts one proxy (the engine, with its page script); the manager owns what it returns. */
export type ProxyStarter = (options: ProxyOptions) => Promise<DevProxy>;

export interface ProxyExecParams {
  id: string;
  code: string;
  session?: string;
  timeoutMs?: number;
}

export interface ProxyLogParams extends TrafficQuery {
  id: string;
}

/** One proxy's connected pages (currentpage). */
export interface ProxyPages {
  proxy: string;
  url: string;
  pages: PageSession[];
}

/** A proxy started (`running`) or stopped: the daemon's `proxies` event. */
export interface ProxyChange {
  proxy: ProxyInfo;
  running: boolean;
}

/** New entries of one proxy's log, gathered for a moment so a busy page does not send an event per request. */
export interface TrafficBatch {
  proxyId: string;
  entries: TrafficEntry[];
}

/** One entry as it is logged, with the oldest entry it pushed out of the proxy's full log. */
export interface LoggedEntry {
  proxyId: string;
  entry: TrafficEntry;
  dropped: TrafficEntry | undefined;
}

interface ManagerEvents {
  change: [ProxyChange];
  traffic: [TrafficBatch];
  /** Every entry at once, unbatched (the inbox picks the error-bearing ones). */
  entry: [LoggedEntry];
}

interface Owned {
  proxy: DevProxy;
  offEntry: () => void;
}

const TRAFFIC_BATCH_MS = 50;

/**
 * The running dev proxies of one owner (the daemon; `workbench mcp --no-daemon` in legacy mode):
 * start, stop, list and look up by id. Ids are unique; an unknown one is get_errors' own error
 * (`proxy "<id>" not found: <detail>`) for every method, so each face says it the same way.
 */
export class ProxyManager extends EventEmitter<ManagerEvents> {
  private readonly owned = new Map<string, Owned>();
  // Ids between start and listen: a second start of the same id must not race the first.
  private readonly starting = new Set<string>();
  private readonly pending = new Map<string, TrafficEntry[]>();
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly startProxy: ProxyStarter,
    private readonly batchMs = TRAFFIC_BATCH_MS,
  ) {
    super();
    // Every daemon connection listens; the default cap of 10 is no leak here.
    this.setMaxListeners(0);
  }

  async start(options: ProxyOptions): Promise<ProxyInfo> {
    const {id, target} = options;
    if (typeof id !== 'string' || !PROXY_ID_PATTERN.test(id))
      throw new WorkbenchError('invalid_argument', `invalid proxy id ${JSON.stringify(id)}: use 1–64 letters, digits, ".", "_" or "-"`);
    if (typeof target !== 'string' || !isHttpUrl(target))
      throw new WorkbenchError('invalid_argument', `invalid target ${JSON.stringify(target)}: use an absolute http(s) URL such as http://127.0.0.1:3000`);
    const running = this.owned.get(id);
    if (running) throw new WorkbenchError('conflict', `proxy "${id}" is already running at ${running.proxy.info.url} (target ${running.proxy.info.target}); stop it first`);
    if (this.starting.has(id)) throw new WorkbenchError('conflict', `proxy "${id}" is starting; wait for it or stop it`);
    this.starting.add(id);
    let proxy: DevProxy;
    try {
      // The engine names a taken port itself (EADDRINUSE, with the port).
      proxy = await this.startProxy(options);
    } finally {
      this.starting.delete(id);
    }
    const offEntry = proxy.onEntry((entry, dropped) => {
      if (this.listenerCount('entry') > 0) this.emit('entry', {proxyId: id, entry, dropped});
      this.queue(id, entry);
    });
    this.owned.set(id, {proxy, offEntry});
    const info = {...proxy.info};
    this.emit('change', {proxy: info, running: true});
    return info;
  }

  async stop(id: string): Promise<ProxyInfo> {
    const owned = this.find(id);
    this.owned.delete(id);
    owned.offEntry();
    this.flush(id);
    await owned.proxy.stop();
    const info = {...owned.proxy.info, pages: 0};
    this.emit('change', {proxy: info, running: false});
    return info;
  }

  async stopAll(): Promise<void> {
    await Promise.allSettled(this.ids().map((id) => this.stop(id)));
  }

  list(): ProxyInfo[] {
    return [...this.owned.values()].map(({proxy}) => ({...proxy.info}));
  }

  ids(): string[] {
    return [...this.owned.keys()];
  }

  get(id: string): DevProxy {
    return this.find(id).proxy;
  }

  /** The inbox's view of every running proxy (get_errors, get_incidents). */
  records(): ProxyRecords[] {
    return [...this.owned.values()].map(({proxy}) => proxy.records());
  }

  log({id, ...query}: ProxyLogParams): TrafficEntry[] {
    return this.find(id).proxy.log(query);
  }

  /** One proxy's pages, or every proxy's when `id` is absent. */
  pages(id?: string): ProxyPages[] {
    const chosen = id === undefined ? [...this.owned.values()] : [this.find(id)];
    return chosen.map(({proxy}) => ({proxy: proxy.info.id, url: proxy.info.url, pages: proxy.pages()}));
  }

  exec({id, code, session, timeoutMs}: ProxyExecParams): Promise<ExecResult[]> {
    return this.find(id).proxy.exec(code, {session, timeoutMs});
  }

  private find(id: string): Owned {
    const owned = this.owned.get(id);
    if (!owned) throw proxyNotFound(id, this.ids());
    return owned;
  }

  private queue(id: string, entry: TrafficEntry): void {
    if (this.listenerCount('traffic') === 0) return;
    let entries = this.pending.get(id);
    if (!entries) this.pending.set(id, (entries = []));
    entries.push(entry);
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      for (const proxyId of [...this.pending.keys()]) this.flush(proxyId);
    }, this.batchMs);
    this.flushTimer.unref();
  }

  private flush(id: string): void {
    const entries = this.pending.get(id);
    this.pending.delete(id);
    if (entries?.length) this.emit('traffic', {proxyId: id, entries});
  }
}
