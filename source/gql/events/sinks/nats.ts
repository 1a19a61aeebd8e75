import {jetstreamManager} from '@nats-io/jetstream';
import {connect, type NatsConnection} from '@nats-io/transport-node';
import {WorkbenchError} from '../../../core/errors.js';
import {JetStreamPublisher} from './jetstream-publisher.js';
import type {EventSink, OutgoingEvent, SinkOutcome} from './sink.js';

export interface NatsTarget {
  servers: string;
  /** The JetStream stream (default WORKBENCH_CDC), created when missing. */
  stream: string;
  /** Subjects are `<prefix>.<schema>.<table>.<op>` (default prefix workbench.cdc). */
  prefix: string;
}

/** `Cdc:NatsUrl`: `nats://host:port[?stream=NAME&subject=prefix]`. */
export function natsTarget(text: string): NatsTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WorkbenchError('config_invalid', `Cdc:NatsUrl ${JSON.stringify(text)} is not a URL (nats://host:port)`);
  }
  if (url.protocol !== 'nats:' && url.protocol !== 'tls:') throw new WorkbenchError('config_invalid', `Cdc:NatsUrl must start with nats://, not ${url.protocol}//`);
  const stream = url.searchParams.get('stream') ?? 'WORKBENCH_CDC';
  const prefix = url.searchParams.get('subject') ?? 'workbench.cdc';
  if (!/^[A-Za-z0-9_-]+$/.test(stream)) throw new WorkbenchError('config_invalid', `Cdc:NatsUrl stream ${JSON.stringify(stream)} may hold letters, digits, _ and - only`);
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(prefix)) throw new WorkbenchError('config_invalid', `Cdc:NatsUrl subject ${JSON.stringify(prefix)} must be dot-separated tokens`);
  return {servers: `${url.hostname}:${url.port || '4222'}`, stream, prefix};
}

/** A subject token from a schema or table name: NATS tokens cannot hold dots, spaces or wildcards. */
const token = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_') || '_';

export function subjectOf(target: NatsTarget, aggregate: string, op: string): string {
  const [schema, ...table] = aggregate.split('.');
  return `${target.prefix}.${token(schema ?? '')}.${token(table.join('.'))}.${op}`;
}

/**
 * Publishes each event to JetStream with the outbox id as `Nats-Msg-Id`, so the stream drops a
 * redelivery inside its duplicate window (2 minutes by default): at least once from the outbox,
 * once in the stream. An aggregate's events are published back to back on one connection (in
 * order, jetstream-publisher.ts: one socket write, the acks on one inbox) and their
 * acknowledgements awaited together; the first one missing stops the count.
 * The connection reconnects by itself; a publish while the server is away fails and is retried.
 */
export async function natsSink(text: string, options: {ackTimeoutMs?: number} = {}): Promise<EventSink> {
  const target = natsTarget(text);
  let connection: NatsConnection;
  try {
    // noAsyncTraces: no Error (with its stack) made up front for every request in case it fails —
    // a third of the dispatcher's CPU when each publish was a request; a failure still says what went wrong.
    connection = await connect({servers: target.servers, maxReconnectAttempts: -1, reconnectTimeWait: 250, timeout: 5000, name: 'workbench gql events', noAsyncTraces: true});
  } catch (error) {
    throw new WorkbenchError('sink_unreachable', `NATS at ${target.servers} cannot be reached: ${(error as Error).message}`);
  }
  const manager = await jetstreamManager(connection);
  try {
    await manager.streams.info(target.stream);
  } catch {
    await manager.streams.add({name: target.stream, subjects: [`${target.prefix}.>`]});
  }
  const publisher = new JetStreamPublisher(connection, options.ackTimeoutMs ?? 5000);
  return {
    name: `nats ${target.servers} stream ${target.stream}`,
    async deliver(events: OutgoingEvent[]): Promise<SinkOutcome> {
      const errors = await publisher.publishAll(events.map(({event, body}) => ({subject: subjectOf(target, event.aggregate, event.op), body, msgId: String(event.id)})));
      const failed = errors.findIndex((error) => error !== undefined);
      if (failed === -1) return {delivered: events.length};
      return {delivered: failed, error: `NATS did not take it: ${errors[failed]}`};
    },
    async close() {
      publisher.close();
      await connection.close().catch(() => undefined);
    },
  };
}
