import {GraphQLError} from 'graphql';
import type {Knex} from 'knex';
import {dialectOf} from '../dialect/dialect-of.js';
import type {DriverConnection} from '../dialect/driver-connection.js';
import type {GqlModel, GqlRequestContext, Provider} from '../types.js';

/** `:root { statement-timeout: N }` unset: each statement may run 30 s. */
export const DEFAULT_STATEMENT_TIMEOUT_SECONDS = 30;

/** How often a cancel is sent again while the abandoned statement still runs. */
const CANCEL_RETRY_MS = 50;

/** The deadline of each statement the model's requests send, in ms. */
export function statementTimeoutMs(model: GqlModel): number {
  return (model.statementTimeoutSeconds ?? DEFAULT_STATEMENT_TIMEOUT_SECONDS) * 1000;
}

/** How long a statement may run, and the setting that said so (named in the error). */
export interface Deadline {
  ms: number;
  setting: 'statement-timeout' | 'raw-sql-timeout';
}

// The timeout each connection's session has now, so a value is set once per connection, not per statement.
const sessionTimeouts = new WeakMap<object, number>();

/**
 * Gives the connection's session the statement deadline (the database itself cancels a
 * statement past it, even when this process is busy), in the dialect's words (PostgreSQL
 * `statement_timeout`, MariaDB `max_statement_time`, MySQL `max_execution_time`). Sent only when
 * the connection's value differs (new connection, or a `_rawQuery` asked for its own).
 */
export async function applySessionTimeout(provider: Provider, connection: DriverConnection, ms: number): Promise<void> {
  if (sessionTimeouts.get(connection) === ms) return;
  if (await dialectOf(provider).setStatementTimeout(connection, ms)) sessionTimeouts.set(connection, ms);
}

/**
 * Cancels what a pooled connection is running, over a connection of its own (`db` is a second,
 * small knex over the same database: the cancel never waits behind the pool it is freeing):
 * PostgreSQL `pg_cancel_backend(pid)`, MySQL/MariaDB `KILL QUERY <thread id>` (the dialect's).
 */
export function statementCanceller(provider: Provider, db: Knex): (connection: unknown) => Promise<void> {
  const dialect = dialectOf(provider);
  return (pooled) => dialect.cancelStatement(db, pooled as DriverConnection);
}

/**
 * Runs `send` on `connection` with the request's deadline and cancel: the session timeout set
 * first; when the request's signal aborts (its client went away) the statement is cancelled, and
 * the connection goes back to the pool only once the cancel is done — never cancelling the next
 * request's statement on it.
 */
export async function withDeadline<T>(ctx: GqlRequestContext, connection: DriverConnection, deadline: Deadline, send: () => Promise<T>): Promise<T> {
  const {ms} = deadline;
  // Checked again once the session is set: the client may leave while either is awaited.
  if (ctx.signal?.aborted) throw abandoned();
  await applySessionTimeout(ctx.model.provider, connection, ms);
  if (ctx.signal?.aborted) throw abandoned();
  let cancelling: Promise<void> | undefined;
  let settled = false;
  const cancel = ctx.cancelStatement;
  // A cancel cuts only the statement running at that moment: one that reaches the database before
  // the statement does (the client left while it was on its way) cuts nothing. So it is sent again
  // every CANCEL_RETRY_MS until the statement has ended.
  const onAbort = () => {
    if (!cancel) return;
    cancelling = (async () => {
      while (!settled) {
        await cancel(connection).catch(() => undefined);
        if (!settled) await new Promise((resolve) => setTimeout(resolve, CANCEL_RETRY_MS));
      }
    })();
  };
  ctx.signal?.addEventListener('abort', onAbort, {once: true});
  try {
    return await send();
  } catch (error) {
    if (ctx.signal?.aborted) throw abandoned();
    throw timedOut(ctx.model.provider, error, deadline) ?? error;
  } finally {
    settled = true;
    ctx.signal?.removeEventListener('abort', onAbort);
    if (cancelling) {
      await cancelling;
      // A cancel that arrived as the statement finished must not fall on the next request's statement.
      await dialectOf(ctx.model.provider).afterCancel(connection);
    }
  }
}

/**
 * Whether the database cut the statement (its deadline, or a cancel): such an error goes up
 * unwrapped to `withDeadline`, which words it (a write's own wording would hide the setting).
 */
export function wasCut(error: unknown): boolean {
  const record = (error ?? {}) as {code?: unknown; errno?: unknown};
  // PostgreSQL query_canceled; MariaDB ER_STATEMENT_TIMEOUT, MySQL ER_QUERY_TIMEOUT, ER_QUERY_INTERRUPTED.
  return record.code === '57014' || record.errno === 1969 || record.errno === 3024 || record.errno === 1317;
}

/** A statement the database cut at its deadline, as one GraphQL error naming the setting; undefined for any other error. */
export function timedOut(provider: Provider, error: unknown, deadline: Deadline): GraphQLError | undefined {
  return dialectOf(provider).isStatementTimeout(error) ? deadlineExceeded(deadline) : undefined;
}

/** The one GraphQL error of a statement cut at its deadline (by the database, or by ending SQLite's reader process), naming the setting. */
export function deadlineExceeded(deadline: Deadline): GraphQLError {
  const seconds = deadline.ms / 1000;
  const message =
    deadline.setting === 'statement-timeout'
      ? `the query ran longer than statement-timeout (${seconds} s) and was cancelled; ask for less (smaller limits, fewer nested lists), or raise :root { statement-timeout: … } in the metadata`
      : `the query ran longer than its timeout (${seconds} s) and was cancelled; _rawQuery's timeout argument may ask for up to :root { raw-sql-timeout: … }`;
  return new GraphQLError(message, {
    extensions: {code: 'query_timeout', setting: deadline.setting, limit: seconds},
  });
}

/** The error of a request whose client left (no one reads it: the answer has nowhere to go). */
export function abandoned(): GraphQLError {
  return new GraphQLError('the client went away before the answer; its statement was cancelled', {extensions: {code: 'request_cancelled'}});
}

interface PooledClient {
  acquireConnection(): Promise<DriverConnection>;
  releaseConnection(connection: DriverConnection): Promise<unknown>;
}

/**
 * A write's transaction under the same deadline and cancel as a read: its connection taken from
 * the pool here, its session timeout set, then handed to knex's transaction (a cancelled or
 * timed-out statement fails the transaction, which rolls back).
 */
export async function transactionWithDeadline<T>(ctx: GqlRequestContext, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if (!dialectOf(ctx.model.provider).runsPooledWithDeadline || ctx.db.isTransaction) return ctx.db.transaction(work);
  if (ctx.signal?.aborted) throw abandoned();
  const client = ctx.db.client as unknown as PooledClient;
  const connection = await client.acquireConnection();
  try {
    return await withDeadline(ctx, connection, {ms: statementTimeoutMs(ctx.model), setting: 'statement-timeout'}, () => ctx.db.transaction(work, {connection}));
  } finally {
    await client.releaseConnection(connection);
  }
}
