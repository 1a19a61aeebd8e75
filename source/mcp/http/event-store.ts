import type {EventStore} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js';

/** How much one session keeps for a client that reconnects with Last-Event-ID (resumability). */
export const MAX_KEPT_EVENTS = 1_000;
export const MAX_KEPT_BYTES = 1024 * 1024;

interface KeptEvent {
  seq: number;
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

/**
 * One session's recent SSE events, so a client whose stream broke gets what it missed (MCP
 * Streamable HTTP, "Resumability and Redelivery"). Bounded by count and bytes: the oldest go
 * first, and a client asking to resume from an event no longer kept is told so (400) rather than
 * handed a stream with a silent gap. `onStored` lets the server watch how much a session queues.
 */
export class BoundedEventStore implements EventStore {
  private readonly events: KeptEvent[] = [];
  private bytes = 0;
  private nextSeq = 1;

  constructor(private readonly onStored: (bytes: number) => void = () => {}) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const bytes = JSON.stringify(message).length;
    const event = {seq: this.nextSeq++, streamId, message, bytes};
    this.events.push(event);
    this.bytes += bytes;
    while (this.events.length > MAX_KEPT_EVENTS || (this.bytes > MAX_KEPT_BYTES && this.events.length > 1)) this.bytes -= this.events.shift()!.bytes;
    this.onStored(bytes);
    return eventId(event);
  }

  async getStreamIdForEventId(id: string): Promise<string | undefined> {
    return this.find(id)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, {send}: {send: (eventId: string, message: JSONRPCMessage) => Promise<void>}): Promise<string> {
    const last = this.find(lastEventId);
    if (!last) throw new Error(`event ${lastEventId.slice(0, 80)} is not kept (a session keeps its last ${MAX_KEPT_EVENTS} events)`);
    for (const event of this.events) if (event.seq > last.seq && event.streamId === last.streamId) await send(eventId(event), event.message);
    return last.streamId;
  }

  private find(id: string): KeptEvent | undefined {
    const match = /^(\d{1,15})@/.exec(id);
    if (!match) return undefined;
    const seq = Number(match[1]);
    const first = this.events[0];
    if (!first || seq < first.seq) return undefined;
    const event = this.events[seq - first.seq];
    return event && eventId(event) === id ? event : undefined;
  }
}

// The sequence first: lookups are by index; the stream id after it is checked on the way.
function eventId(event: KeptEvent): string {
  return `${event.seq}@${event.streamId}`;
}
