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
  /**
   * One request per event (the webhook): the dispatcher hands it one row's events at a time and
   * runs different rows side by side. Without it the sink takes a whole claimed table's events in
   * id order as one batch (JetStream pipelines its publishes: one call for all is fastest).
   */
  readonly perRow?: boolean;
  /** Delivers the events given in order, stopping at the first failure. */
  deliver(events: OutgoingEvent[]): Promise<SinkOutcome>;
  close(): Promise<void>;
}
