import {createInbox, headers, type Msg, type NatsConnection, type Subscription} from '@nats-io/transport-node';

/** One message for a JetStream stream: its subject, body and `Nats-Msg-Id` (the stream's duplicate key). */
export interface StreamMessage {
  subject: string;
  body: string;
  msgId: string;
}

/**
 * JetStream publishes whose acknowledgements are awaited together: each message is a core publish
 * whose reply subject is one of this publisher's inbox (`<inbox>.<n>`), so a batch leaves in one
 * socket write and every ack comes back to one subscription. nats.js's `js.publish` is a request
 * per message: a socket write of its own and an Error made for every answered request
 * (`RequestOne.cancel`) — a fifth of the dispatcher's CPU at JetStream rates, profiled. The wire is
 * the same: a stream stores a message published to its subjects and answers the reply subject
 * with its PubAck (`{"stream":…,"seq":…}`) or an error; no stream at all is a 503 status.
 */
export class JetStreamPublisher {
  private readonly inbox = createInbox();
  private readonly waiting = new Map<string, (error: string | undefined) => void>();
  private readonly subscription: Subscription;
  private serial = 0;

  constructor(
    private readonly connection: NatsConnection,
    private readonly ackTimeoutMs: number,
  ) {
    this.subscription = connection.subscribe(`${this.inbox}.*`, {
      callback: (error, msg) => {
        if (error === null) this.settle(msg.subject, ackError(msg));
      },
    });
  }

  /** Publishes `messages` in order; answers, per message, undefined once the stream stored it, else why not. */
  publishAll(messages: StreamMessage[]): Promise<Array<string | undefined>> {
    const replies: string[] = [];
    const outcomes = messages.map(
      (message) =>
        new Promise<string | undefined>((resolve) => {
          const reply = `${this.inbox}.${(this.serial++).toString(36)}`;
          replies.push(reply);
          this.waiting.set(reply, resolve);
          const head = headers();
          head.set('Nats-Msg-Id', message.msgId);
          try {
            this.connection.publish(message.subject, message.body, {reply, headers: head});
          } catch (error) {
            this.settle(reply, (error as Error).message);
          }
        }),
    );
    // An ack that never comes (the server went away mid-batch) is a failure after the timeout;
    // the outbox delivers the event again and the stream's duplicate window drops a second copy.
    const timer = setTimeout(() => {
      for (const reply of replies) this.settle(reply, `no acknowledgement in ${this.ackTimeoutMs} ms`);
    }, this.ackTimeoutMs);
    return Promise.all(outcomes).finally(() => clearTimeout(timer));
  }

  close(): void {
    this.subscription.unsubscribe();
    for (const reply of [...this.waiting.keys()]) this.settle(reply, 'the connection closed');
  }

  private settle(reply: string, error: string | undefined): void {
    const resolve = this.waiting.get(reply);
    if (!resolve) return;
    this.waiting.delete(reply);
    resolve(error);
  }
}

/** Why a PubAck says the message was not stored, or undefined when it was. */
function ackError(msg: Msg): string | undefined {
  if (msg.headers?.hasError) return msg.headers.code === 503 ? 'no stream takes this subject (503 no responders)' : `${msg.headers.code} ${msg.headers.description}`.trim();
  let ack: {stream?: unknown; error?: {code?: number; description?: string}};
  try {
    ack = msg.json();
  } catch {
    return 'the acknowledgement is not JSON';
  }
  if (ack.error) return `${ack.error.description ?? 'refused'} (${ack.error.code ?? '?'})`;
  return typeof ack.stream === 'string' && ack.stream !== '' ? undefined : 'invalid acknowledgement';
}
