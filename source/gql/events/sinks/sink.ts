import type {OutboxEvent} from '../outbox-store.js';

/** One event ready to leave: the outbox row and its CloudEvents JSON body (signed by the webhook sink). */
export interface OutgoingEvent {
  event: OutboxEvent;
  body: string;
}

/** How far a sink got with one aggregate's events, which it takes in order: the first `delivered`, then `error` on the next. */
export interface SinkOutcome {
  delivered: number;
  error?: string;
}

/** A delivery target (`Cdc:WebhookUrl`, `Cdc:NatsUrl`). */
export interface EventSink {
  /** For messages: `webhook http://…`, `nats nats://…`. */
  readonly name: string;
  /** Delivers one aggregate's events in order, stopping at the first failure. */
  deliver(events: OutgoingEvent[]): Promise<SinkOutcome>;
  close(): Promise<void>;
}
