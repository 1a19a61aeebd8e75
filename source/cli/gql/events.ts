import {WorkbenchError} from '../../core/errors.js';
import {Dispatcher} from '../../gql/events/dispatcher.js';
import {initOutbox, openEvents, openSinks} from '../../gql/events/events-service.js';
import type {EventState, OutboxEvent} from '../../gql/events/outbox-store.js';
import {json, text} from '../command-result.js';
import type {CommandResult} from '../command-output.js';

export interface EventsFlags {
  settings?: string;
  raw: boolean;
}

/** A whole number ≥ `min` from a flag, or a one-line refusal naming the flag. */
export function wholeNumber(flag: string, value: string | undefined, min: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(Number(value)) || Number(value) < min) {
    throw new WorkbenchError('invalid_argument', `${flag} must be a whole number of at least ${min}, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

const STATES: readonly EventState[] = ['pending', 'dispatched', 'dead', 'all'];

function stateOf(event: OutboxEvent): string {
  if (event.dispatchedAt) return 'dispatched';
  if (event.dead) return 'dead';
  return event.attempts > 0 ? `retrying (${event.attempts})` : 'pending';
}

/** One line per event: id, state, table, operation, key, when, and the last failure. */
export function formatEvents(events: OutboxEvent[]): string {
  if (events.length === 0) return 'no events\n';
  const lines = events.map((event) => {
    const error = event.lastError ? `  ${event.lastError}` : '';
    return `${String(event.id).padStart(6)}  ${stateOf(event).padEnd(13)} ${event.aggregate} ${event.op} ${event.aggregateId}  ${event.createdAt}${error}`;
  });
  return `${lines.join('\n')}\n`;
}

export async function listEvents(flags: EventsFlags & {state?: string; from?: string; limit?: string}): Promise<CommandResult> {
  const state = (flags.state ?? 'all') as EventState;
  if (!STATES.includes(state)) throw new WorkbenchError('invalid_argument', `--state must be ${STATES.join(', ')}, not ${JSON.stringify(flags.state)}`);
  const from = flags.from === undefined ? undefined : wholeNumber('--from', flags.from, 1, 1);
  const limit = wholeNumber('--limit', flags.limit, 1, 100);
  const events = await openEvents({file: flags.settings});
  try {
    const rows = await events.store.list({state, limit, ...(from !== undefined ? {from} : {})});
    return flags.raw ? json(rows) : text(formatEvents(rows));
  } finally {
    await events.close();
  }
}

export async function replayEvents(flags: EventsFlags & {from?: string}): Promise<CommandResult> {
  if (flags.from === undefined) throw new WorkbenchError('invalid_argument', 'replay needs --from <id>: the first event to deliver again');
  const from = wholeNumber('--from', flags.from, 1, 1);
  const events = await openEvents({file: flags.settings});
  try {
    const count = await events.store.replay(from);
    return flags.raw ? json({replayed: count, from}) : text(`${count} event${count === 1 ? '' : 's'} from ${from} on will be delivered again`);
  } finally {
    await events.close();
  }
}

export async function retryEvent(flags: EventsFlags, id: string): Promise<CommandResult> {
  const number = wholeNumber('the event id', id, 1, 1);
  const events = await openEvents({file: flags.settings});
  try {
    const event = await events.store.retry(number);
    return flags.raw ? json(event) : text(`event ${event.id} (${event.aggregate} ${event.op}) will be tried again now`);
  } finally {
    await events.close();
  }
}

export async function initEvents(flags: EventsFlags & {table?: string; print: boolean}): Promise<CommandResult> {
  const result = await initOutbox({file: flags.settings, ...(flags.table !== undefined ? {table: flags.table} : {}), print: flags.print});
  if (flags.raw) return json(result);
  if (!result.applied) return text(`${result.statements.join(';\n\n')};`);
  return text(`outbox ${result.table} is ready; name it in the rules: ":root { outbox-table: ${result.table}; }"`);
}

export interface DispatchFlags extends EventsFlags {
  once: boolean;
  maxAttempts?: string;
  baseDelayMs?: string;
  leaseSeconds?: string;
  webhookTimeoutMs?: string;
}

/**
 * `gql events dispatch`: delivers the outbox to `Cdc:WebhookUrl` and `Cdc:NatsUrl` until Ctrl-C
 * (or, with `--once`, until nothing is due). Failures and dead letters are said on stderr as
 * they happen. Several may run against one database.
 */
export async function dispatchEvents(flags: DispatchFlags, signal?: AbortSignal): Promise<CommandResult> {
  const options = {
    maxAttempts: wholeNumber('--max-attempts', flags.maxAttempts, 1, 10),
    baseDelayMs: wholeNumber('--base-delay-ms', flags.baseDelayMs, 1, 1000),
    leaseMs: wholeNumber('--lease-seconds', flags.leaseSeconds, 1, 60) * 1000,
    log: (line: string) => process.stderr.write(`${line}\n`),
  };
  const webhookTimeoutMs = wholeNumber('--webhook-timeout-ms', flags.webhookTimeoutMs, 1, 10_000);
  const events = await openEvents({file: flags.settings});
  try {
    if (!events.settings.cdc.webhookUrl && !events.settings.cdc.natsUrl) {
      throw new WorkbenchError('config_invalid', `nowhere to deliver: set Cdc:WebhookUrl or Cdc:NatsUrl in ${events.settings.source}`);
    }
    const sinks = await openSinks(events.settings, events.model, {webhookTimeoutMs});
    const dispatcher = new Dispatcher(events.store, events.model, sinks, options);
    const totals = {delivered: 0, filtered: 0, failed: 0};
    if (flags.once) {
      for (;;) {
        const round = await dispatcher.runOnce();
        totals.delivered += round.delivered;
        totals.filtered += round.filtered;
        totals.failed += round.failed;
        if (!round.more) break;
      }
      await Promise.all(sinks.map((sink) => sink.close()));
    } else {
      process.stderr.write(`dispatching ${events.model.events?.outbox.key} to ${sinks.map((sink) => sink.name).join(' and ')} (Ctrl-C stops)\n`);
      dispatcher.start();
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        signal?.addEventListener('abort', stop, {once: true});
      });
      await dispatcher.stop();
    }
    if (flags.raw) return json(totals);
    return text(flags.once ? `${totals.delivered} delivered, ${totals.filtered} filtered out, ${totals.failed} failed (retried later)` : 'dispatcher stopped');
  } finally {
    await events.close();
  }
}
