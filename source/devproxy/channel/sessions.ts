import type {PageSession} from '../types.js';

// Sessions kept, connected or not; the oldest disconnected one goes first.
const MAX_SESSIONS = 200;

/** The browser tabs that talk to one proxy (currentpage), by the session id each tab keeps across reloads. */
export class PageSessions {
  private readonly sessions = new Map<string, PageSession>();
  private readonly connections = new Map<string, number>();

  /** A page said hello: a new load when its load time is new (a reconnect of the same page is not one). */
  hello(hello: {session: string; url: string; title: string; loadedAt: number; userAgent?: string}, now: number): {session: PageSession; loaded: boolean} {
    const known = this.sessions.get(hello.session);
    const loaded = known === undefined || known.loadedAt !== hello.loadedAt;
    const session: PageSession = {
      session: hello.session,
      url: hello.url,
      title: hello.title,
      loadedAt: hello.loadedAt,
      lastSeen: now,
      errors: loaded ? 0 : known.errors,
      failedRequests: loaded ? 0 : known.failedRequests,
      connected: true,
    };
    if (!loaded && known.lastInteraction !== undefined) session.lastInteraction = known.lastInteraction;
    if (hello.userAgent) session.userAgent = hello.userAgent;
    this.sessions.delete(hello.session);
    this.sessions.set(hello.session, session);
    this.connections.set(hello.session, (this.connections.get(hello.session) ?? 0) + 1);
    this.evict();
    return {session, loaded};
  }

  get(id: string): PageSession | undefined {
    return this.sessions.get(id);
  }

  touch(id: string, now: number): PageSession | undefined {
    const session = this.sessions.get(id);
    if (session) session.lastSeen = now;
    return session;
  }

  /** One connection of the session closed; true when it was the last one. */
  disconnect(id: string, now: number): boolean {
    const left = (this.connections.get(id) ?? 1) - 1;
    if (left > 0) {
      this.connections.set(id, left);
      return false;
    }
    this.connections.delete(id);
    const session = this.sessions.get(id);
    if (session) {
      session.connected = false;
      session.lastSeen = now;
    }
    return true;
  }

  /** A request that failed (4xx, 5xx, no answer) counts for the connected pages showing the URL that issued it. */
  failedRequest(pageUrl: string): void {
    const page = withoutHash(pageUrl);
    for (const session of this.sessions.values()) {
      if (session.connected && withoutHash(session.url) === page) session.failedRequests++;
    }
  }

  list(): PageSession[] {
    return [...this.sessions.values()].reverse().map((session) => ({...session}));
  }

  connected(): number {
    return this.connections.size;
  }

  private evict(): void {
    if (this.sessions.size <= MAX_SESSIONS) return;
    for (const [id, session] of this.sessions) {
      if (!session.connected) {
        this.sessions.delete(id);
        if (this.sessions.size <= MAX_SESSIONS) return;
      }
    }
  }
}

function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}
