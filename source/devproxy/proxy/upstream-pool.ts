import net, {type Socket} from 'node:net';
import tls from 'node:tls';
import type {Target} from './target.js';

/** Whoever holds a connection for one exchange hears its bytes and its end. */
export interface ConnectionUser {
  onData(chunk: Buffer): void;
  onClosed(error: Error | undefined): void;
  /** The connection was silent for the target timeout. */
  onTimeout(): void;
}

// An idle connection is closed before a dev server's usual 5 s keep-alive ends, so a request never races the target's close.
const KEEP_ALIVE_MS = 4000;

/**
 * One kept-alive connection to the target. Its listeners are set once and pass events to the
 * exchange holding it, so a request costs no listener bookkeeping; the socket's own inactivity
 * timer (refreshed by Node on every read and write) is the target timeout.
 */
export class UpstreamConnection {
  user?: ConnectionUser;
  /** Whether it carried an exchange before: a kept-alive connection may have been closed by the target meanwhile. */
  reused = false;
  idleSince = 0;
  private error?: Error;

  constructor(
    readonly socket: Socket,
    private readonly pool: UpstreamPool,
    timeoutMs: number,
  ) {
    socket.setTimeout(timeoutMs);
    socket.on('data', (chunk: Buffer) => (this.user ? this.user.onData(chunk) : socket.destroy()));
    socket.on('timeout', () => (this.user ? this.user.onTimeout() : socket.destroy()));
    socket.on('error', (error) => (this.error = error));
    socket.on('close', () => {
      pool.forget(this);
      const user = this.user;
      this.user = undefined;
      user?.onClosed(this.error);
    });
  }

  /** Back to the pool after a complete exchange, or closed when it cannot carry another. */
  release(reusable: boolean): void {
    this.user = undefined;
    if (!reusable || this.socket.destroyed) {
      this.socket.destroy();
      return;
    }
    // The last exchange may have paused it for a slow browser: the next one must hear its answer.
    this.socket.resume();
    this.pool.keep(this);
  }
}

/** Kept-alive connections to the target: as many as requests in flight, idle ones reused newest first. */
export class UpstreamPool {
  private readonly idle: UpstreamConnection[] = [];
  private readonly open = new Set<UpstreamConnection>();
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly target: Target,
    private readonly timeoutMs: number,
  ) {
    this.sweep = setInterval(() => this.closeExpired(Date.now() - KEEP_ALIVE_MS), KEEP_ALIVE_MS / 4);
    this.sweep.unref();
  }

  take(user: ConnectionUser): UpstreamConnection {
    const oldest = Date.now() - KEEP_ALIVE_MS;
    let connection: UpstreamConnection | undefined;
    while ((connection = this.idle.pop())) {
      if (connection.idleSince > oldest && !connection.socket.destroyed) break;
      connection.socket.destroy();
    }
    connection ??= this.connect();
    connection.user = user;
    return connection;
  }

  /** A fresh connection, for a request that must not meet a kept-alive connection's close. */
  takeFresh(user: ConnectionUser): UpstreamConnection {
    const connection = this.connect();
    connection.user = user;
    return connection;
  }

  keep(connection: UpstreamConnection): void {
    connection.reused = true;
    connection.idleSince = Date.now();
    this.idle.push(connection);
  }

  forget(connection: UpstreamConnection): void {
    this.open.delete(connection);
    const index = this.idle.indexOf(connection);
    if (index !== -1) this.idle.splice(index, 1);
  }

  close(): void {
    clearInterval(this.sweep);
    for (const connection of this.open) connection.socket.destroy();
  }

  private connect(): UpstreamConnection {
    const {hostname, port, secure} = this.target;
    const socket = secure
      ? // A dev server's certificate is usually self-signed: the user named this target, so it is trusted as is.
        tls.connect({host: hostname, port, rejectUnauthorized: false, servername: net.isIP(hostname) ? undefined : hostname})
      : net.connect({host: hostname, port});
    socket.setNoDelay(true);
    const connection = new UpstreamConnection(socket, this, this.timeoutMs);
    this.open.add(connection);
    return connection;
  }

  private closeExpired(oldest: number): void {
    for (const connection of [...this.idle]) if (connection.idleSince <= oldest) connection.socket.destroy();
  }
}
