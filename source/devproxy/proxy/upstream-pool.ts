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
    // A plain connection reads into its own slab (connect, below); TLS streams its chunks.
    if (socket instanceof tls.TLSSocket) socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('timeout', () => (this.user ? this.user.onTimeout() : socket.destroy()));
    socket.on('error', (error) => (this.error = error));
    socket.on('close', () => {
      pool.forget(this);
      const user = this.user;
      this.user = undefined;
      user?.onClosed(this.error);
    });
  }

  /** Always true: net's `onread` would stop reading on false; a slow browser pauses the socket itself (forward.ts). */
  onData(chunk: Buffer): true {
    if (this.user) this.user.onData(chunk);
    else this.socket.destroy();
    return true;
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
    const slab = secure ? undefined : new ReadSlab();
    const socket: Socket = secure
      ? // A dev server's certificate is usually self-signed: the user named this target, so it is trusted as is.
        tls.connect({host: hostname, port, rejectUnauthorized: false, servername: net.isIP(hostname) ? undefined : hostname})
      : net.connect({host: hostname, port, onread: {buffer: () => slab!.next(), callback: (size, buffer): boolean => connection.onData(slab!.take(buffer as Buffer, size))}});
    socket.setNoDelay(true);
    const connection: UpstreamConnection = new UpstreamConnection(socket, this, this.timeoutMs);
    this.open.add(connection);
    return connection;
  }

  private closeExpired(oldest: number): void {
    for (const connection of [...this.idle]) if (connection.idleSince <= oldest) connection.socket.destroy();
  }
}

const SLAB_BYTES = 64 * 1024;
const MIN_READ_BYTES = 8 * 1024;

/**
 * Where one plain connection's reads land (net's `onread`): each read fills the rest of a 64 KiB
 * slab and hands on a view of what came, so an answer costs no buffer of its own and no readable
 * stream's bookkeeping. A region is never read into
 * twice: views that outlive their read (a page gathered for injection, a write the browser is slow
 * to take) stay as they were; the slab is freed with its last view.
 */
class ReadSlab {
  private slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
  private offset = 0;

  /** What came in a read into `buffer` (the region next() gave out). */
  take(buffer: Buffer, size: number): Buffer {
    this.offset += size;
    return buffer.subarray(0, size);
  }

  /** Where the next read goes. */
  next(): Buffer {
    if (SLAB_BYTES - this.offset < MIN_READ_BYTES) {
      this.slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.offset = 0;
    }
    return this.slab.subarray(this.offset);
  }
}
