import type {DaemonClient} from '../../daemon/client.js';
import type {DaemonEvents, Topic} from '../../daemon/protocol/events.js';

/** The topics every live server follows; `output` only while someone wants it (it is the busiest). */
const ALWAYS: Exclude<Topic, 'output'>[] = ['processes', 'inbox', 'alerts', 'proxies', 'traffic'];

type Listener<T extends Topic> = (event: DaemonEvents[T]) => void;

/** How a connection came: `reconnected` when an earlier one of this server was lost (the daemon may be new). */
export interface Attachment {
  client: DaemonClient;
  reconnected: boolean;
}

/**
 * One MCP server's view of the daemon's events, over the connection its tools use: attached to
 * each connection as it is made, detached (its daemon subscriptions released) on close. Listeners
 * stay across connections, so subscriptions made before a daemon was lost resume with the next.
 */
export class DaemonFeed {
  private readonly listeners = new Map<Topic, Set<(event: never) => void>>();
  private readonly lostListeners = new Set<() => void>();
  private readonly attachListeners = new Set<(attachment: Attachment) => void>();
  private releases: (() => Promise<void>)[] = [];
  private releaseOutput: (() => Promise<void>) | undefined;
  private client: DaemonClient | undefined;
  private wantsOutput = false;
  private attached = 0;
  private closed = false;

  on<T extends Topic>(topic: T, listener: Listener<T>): void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener as (event: never) => void);
  }

  /** The daemon's connection closed while this server was open. */
  onLost(listener: () => void): void {
    this.lostListeners.add(listener);
  }

  onAttach(listener: (attachment: Attachment) => void): void {
    this.attachListeners.add(listener);
  }

  get connected(): DaemonClient | undefined {
    return this.client;
  }

  /** Follows a new connection (the tool context's onConnect calls this). */
  async attach(client: DaemonClient): Promise<void> {
    if (this.closed || client === this.client) return;
    this.client = client;
    const reconnected = this.attached > 0;
    this.attached += 1;
    client.closedPromise().then(() => {
      if (this.client !== client) return;
      this.client = undefined;
      this.releases = [];
      this.releaseOutput = undefined;
      if (!this.closed) for (const listener of this.lostListeners) listener();
    });
    try {
      this.releases = await Promise.all(ALWAYS.map((topic) => client.subscribe(topic, (event) => this.emit(topic, event))));
      if (this.wantsOutput) this.releaseOutput = await client.subscribe('output', (event) => this.emit('output', event));
    } catch {
      return; // The connection went while subscribing: onLost says so, the next connection attaches again.
    }
    for (const listener of this.attachListeners) listener({client, reconnected});
  }

  /** Follows every process's output while `wanted` (a subscription to a process's output exists). */
  async wantOutput(wanted: boolean): Promise<void> {
    if (wanted === this.wantsOutput) return;
    this.wantsOutput = wanted;
    const client = this.client;
    if (!client) return;
    if (wanted) this.releaseOutput = await client.subscribe('output', (event) => this.emit('output', event)).catch(() => undefined);
    else {
      const release = this.releaseOutput;
      this.releaseOutput = undefined;
      await release?.();
    }
  }

  /** Releases the daemon subscriptions; the connection itself belongs to the tool context. */
  async close(): Promise<void> {
    this.closed = true;
    const releases = [...this.releases, ...(this.releaseOutput ? [this.releaseOutput] : [])];
    this.releases = [];
    this.releaseOutput = undefined;
    this.client = undefined;
    this.listeners.clear();
    await Promise.all(releases.map((release) => release().catch(() => undefined)));
  }

  private emit<T extends Topic>(topic: T, event: DaemonEvents[T]): void {
    for (const listener of this.listeners.get(topic) ?? []) {
      try {
        (listener as Listener<T>)(event);
      } catch {
        // One listener's failure must not stop the others, nor the connection's reader.
      }
    }
  }
}
