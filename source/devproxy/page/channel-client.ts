/**
 * The page's end of the channel: one WebSocket to the proxy's reserved path, `hello` on every open,
 * reconnects with backoff (the dev server or proxy restarting must not lose the page), messages
 * queued while down (bounded) and frames kept under the proxy's size limit.
 */
import type {PageMessage, ProxyMessage} from '../channel/protocol.js';

const MAX_QUEUE = 200;
const MAX_BACKOFF_MS = 4000;
/** Below the proxy's MAX_PAGE_FRAME (256 KiB), with room for the envelope. */
export const MAX_FRAME_BYTES = 250 * 1024;
/** Stop writing while the socket holds this much unsent (a slow proxy). */
const MAX_BUFFERED = 1024 * 1024;

export interface ChannelClientOptions {
  url: string;
  hello: () => PageMessage;
  onMessage: (message: ProxyMessage) => void;
  /** Messages the client had to drop (queue full, frame too large). */
  onDropped: (count: number) => void;
}

const NativeWebSocket = window.WebSocket;
const encoder = new TextEncoder();

export function frameBytes(frame: string): number {
  return frame.length * 3 <= MAX_FRAME_BYTES ? frame.length : encoder.encode(frame).length;
}

export class ChannelClient {
  private socket: WebSocket | undefined;
  private readonly queue: string[] = [];
  private attempts = 0;
  private reconnectTimer = 0;
  private flushTimer = 0;

  constructor(private readonly options: ChannelClientOptions) {}

  start(): void {
    this.connect();
  }

  get connected(): boolean {
    return this.socket?.readyState === NativeWebSocket.OPEN;
  }

  send(message: PageMessage): void {
    let frame = JSON.stringify(message);
    if (frameBytes(frame) > MAX_FRAME_BYTES) {
      if (message.t !== 'result') {
        this.options.onDropped(1);
        return;
      }
      frame = JSON.stringify({t: 'result', id: message.id, ok: false, error: `result too large for the channel (${frameBytes(frame)} bytes; the limit is ${MAX_FRAME_BYTES})`});
    }
    if (this.connected && this.socket!.bufferedAmount < MAX_BUFFERED && this.queue.length === 0) {
      this.socket!.send(frame);
      return;
    }
    this.queue.push(frame);
    if (this.queue.length > MAX_QUEUE) {
      this.queue.splice(0, this.queue.length - MAX_QUEUE);
      this.options.onDropped(1);
    }
    if (this.connected) this.flushSoon();
  }

  private connect(): void {
    let socket: WebSocket;
    try {
      socket = new NativeWebSocket(this.options.url);
    } catch (_refused) {
      // A CSP connect-src the proxy did not widen, or a bad URL: keep trying, quietly.
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.attempts = 0;
      socket.send(JSON.stringify(this.options.hello()));
      this.flush();
    });
    socket.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') return;
      let message: ProxyMessage;
      try {
        message = JSON.parse(event.data) as ProxyMessage;
      } catch (_notJson) {
        return;
      }
      if (message && typeof message === 'object') this.options.onMessage(message);
    });
    socket.addEventListener('close', () => {
      if (this.socket === socket) this.socket = undefined;
      this.scheduleReconnect();
    });
  }

  private flush(): void {
    while (this.queue.length > 0 && this.connected && this.socket!.bufferedAmount < MAX_BUFFERED) this.socket!.send(this.queue.shift()!);
    if (this.queue.length > 0 && this.connected) this.flushSoon();
  }

  /** A backlog while connected (the socket's buffer was full): try again once it has drained a little. */
  private flushSoon(): void {
    if (this.flushTimer) return;
    this.flushTimer = window.setTimeout(() => {
      this.flushTimer = 0;
      this.flush();
    }, 50);
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer) return;
    const delay = Math.min(MAX_BACKOFF_MS, 250 * 2 ** this.attempts) * (0.75 + Math.random() * 0.5);
    this.attempts++;
    this.reconnectTimer = window.setTimeout(() => {
      this.reconnectTimer = 0;
      this.connect();
    }, delay);
  }
}
