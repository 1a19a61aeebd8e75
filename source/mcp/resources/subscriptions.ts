import type {Server} from '@modelcontextprotocol/sdk/server/index.js';
import {getIncidents} from '../../tools/get-incidents.js';
import type {ToolContext} from '../../tools/registry-types.js';
import {Coalescer} from '../live/coalesce.js';
import type {DaemonFeed} from '../live/feed.js';
import {INVALID_PARAMS, ProtocolError} from '../protocol-error.js';
import {INCIDENTS_URI, parseResourceUri, PROJECT_URI, resourceUri} from './uris.js';

/** Subscriptions one client may hold; memory stays bounded however many it asks for. */
export const MAX_SUBSCRIPTIONS = 1000;

const LIST_CHANGED = Symbol('list_changed');
const INCIDENT_CHECK = Symbol('incident check');
type Key = string | typeof LIST_CHANGED | typeof INCIDENT_CHECK;

/**
 * The resources one client subscribed to, and what turns the daemon's events into
 * `notifications/resources/updated` for them (each URI coalesced: at most one notice per interval,
 * the last change always told) and `notifications/resources/list_changed` when processes or
 * proxies come and go. One per MCP server, so per client whatever the transport.
 */
export class ResourceSubscriptions {
  private readonly uris = new Set<string>();
  /** Per subscribed incident: count and last seen as last read, to tell which incidents an inbox change touched. */
  private readonly incidentMarks = new Map<string, string | undefined>();
  private readonly processes = new Set<string>();
  private readonly proxies = new Set<string>();
  private readonly coalescer: Coalescer<Key>;

  constructor(
    private readonly server: Server,
    private readonly context: ToolContext,
    private readonly feed: DaemonFeed,
  ) {
    this.coalescer = new Coalescer<Key>((key) => this.announce(key));
    feed.on('inbox', () => {
      this.touch(INCIDENTS_URI);
      if (this.incidentMarks.size) this.coalescer.touch(INCIDENT_CHECK);
    });
    feed.on('processes', ({process}) => {
      this.touch(resourceUri({kind: 'output', id: process.id}));
      if (!this.processes.has(process.id)) {
        this.processes.add(process.id);
        this.coalescer.touch(LIST_CHANGED);
      }
    });
    feed.on('output', ({processId}) => this.touch(resourceUri({kind: 'output', id: processId})));
    feed.on('proxies', ({proxy, running}) => {
      this.touchProxy(proxy.id);
      if (running !== this.proxies.has(proxy.id)) {
        if (running) this.proxies.add(proxy.id);
        else this.proxies.delete(proxy.id);
        this.coalescer.touch(LIST_CHANGED);
      }
    });
    feed.on('traffic', ({proxyId}) => this.touchProxy(proxyId));
    feed.onAttach(({client, reconnected}) => {
      void Promise.all([client.call('proc.list', {}), client.call('proxy.list')])
        .then(([processes, proxies]) => {
          this.processes.clear();
          for (const info of processes) this.processes.add(info.id);
          this.proxies.clear();
          for (const info of proxies) this.proxies.add(info.id);
        })
        .catch(() => undefined);
      // A new daemon: every list and every subscribed resource may have changed.
      if (reconnected) {
        this.coalescer.touch(LIST_CHANGED);
        for (const uri of this.uris) this.coalescer.touch(uri);
      }
    });
  }

  get size(): number {
    return this.uris.size;
  }

  /** resources/subscribe: a known kind of resource (its process or proxy may come later); at most MAX_SUBSCRIPTIONS. */
  async subscribe(given: string): Promise<void> {
    const ref = parseResourceUri(given);
    // One spelling per resource, the one its notices carry.
    const uri = resourceUri(ref);
    if (ref.kind === 'project') throw new ProtocolError(INVALID_PARAMS, `${PROJECT_URI} is not watched: read it again after changing the project's files`);
    if (this.context.noDaemon) throw new ProtocolError(INVALID_PARAMS, 'subscriptions need the workbench daemon, which --no-daemon turns off');
    if (this.uris.has(uri)) return;
    if (this.uris.size >= MAX_SUBSCRIPTIONS)
      throw new ProtocolError(INVALID_PARAMS, `too many subscriptions: a client may hold ${MAX_SUBSCRIPTIONS}; unsubscribe from some first (resources/unsubscribe)`);
    this.uris.add(uri);
    if (ref.kind === 'incident') this.incidentMarks.set(ref.id, await this.incidentMark(ref.id));
    if (ref.kind === 'output') await this.feed.wantOutput(true);
    // The feed follows the tool context's connection; subscribing is a reason to make one.
    if (!this.feed.connected) await this.context.daemon();
  }

  async unsubscribe(given: string): Promise<void> {
    const ref = parseResourceUri(given);
    const uri = resourceUri(ref);
    if (!this.uris.delete(uri)) return;
    this.coalescer.forget(uri);
    if (ref.kind === 'incident') this.incidentMarks.delete(ref.id);
    if (ref.kind === 'output' && ![...this.uris].some((other) => other.startsWith('workbench://processes/'))) await this.feed.wantOutput(false);
  }

  close(): void {
    this.coalescer.close();
    this.uris.clear();
    this.incidentMarks.clear();
  }

  private touch(uri: string): void {
    if (this.uris.has(uri)) this.coalescer.touch(uri);
  }

  private touchProxy(id: string): void {
    this.touch(resourceUri({kind: 'traffic', id}));
    this.touch(resourceUri({kind: 'pages', id}));
  }

  private announce(key: Key): void {
    if (key === LIST_CHANGED) void this.server.sendResourceListChanged().catch(() => undefined);
    else if (key === INCIDENT_CHECK) void this.checkIncidents();
    else void this.server.sendResourceUpdated({uri: key}).catch(() => undefined);
  }

  /** What tells that an incident changed: its count and when it was last seen (undefined: not in the inbox). */
  private async incidentMark(id: string): Promise<string | undefined> {
    try {
      const {incidents} = await getIncidents({id}, this.context);
      return `${incidents[0]!.count}@${incidents[0]!.last_seen}`;
    } catch {
      return undefined;
    }
  }

  /** After an inbox change: the subscribed incidents whose count or last sighting moved (or that came or went). */
  private async checkIncidents(): Promise<void> {
    let marks: Map<string, string>;
    try {
      const {incidents} = await getIncidents({limit: 10_000}, this.context);
      marks = new Map(incidents.map((incident) => [incident.id, `${incident.count}@${incident.last_seen}`]));
    } catch {
      return;
    }
    for (const [id, before] of this.incidentMarks) {
      const now = marks.get(id);
      if (now === before) continue;
      this.incidentMarks.set(id, now);
      const uri = resourceUri({kind: 'incident', id});
      if (this.uris.has(uri)) void this.server.sendResourceUpdated({uri}).catch(() => undefined);
    }
  }
}
