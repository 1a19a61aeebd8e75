import type {Knex} from 'knex';
import {WorkbenchError, environmentFault, isWorkbenchError} from '../../core/errors.js';
import {wasCut} from '../query/deadline.js';
import type {SentStatement} from '../types.js';

/** What a write needs to send SQL: the transaction it runs in and, in debug, where the SQL sent goes. */
export interface WriteRunner {
  trx: Knex.Transaction;
  statements?: SentStatement[];
}

type Compiled = {sql: string; bindings: readonly unknown[]; toNative?: () => {sql: string}};

/** A knex builder or raw: both compile with toSQL() and run when awaited. */
export type Statement = Knex.QueryBuilder | Knex.Raw;

/**
 * Sends one statement and, when the request asked for debug, records it (the SQL as knex
 * compiled it, its bindings, how long it took). Driver errors become WorkbenchErrors without the
 * SQL knex prefixes to their messages: constraint names and the driver's reason stay, the
 * statement text does not reach the client.
 */
export async function runStatement<T = unknown>(runner: WriteRunner, statement: Statement): Promise<T> {
  const compiled = statement.toSQL() as Compiled | Compiled[];
  const parts = Array.isArray(compiled) ? compiled : [compiled];
  const started = performance.now();
  try {
    return (await statement) as T;
  } catch (error) {
    if (wasCut(error)) throw error;
    throw asWriteError(error, parts, statement.toString());
  } finally {
    if (runner.statements) {
      const ms = performance.now() - started;
      for (const part of parts) runner.statements.push({sql: part.sql, bindings: [...part.bindings], ms: ms / parts.length});
    }
  }
}

const CONFLICT_CODES = new Set(['23505', 'ER_DUP_ENTRY', 'SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_UNIQUE', '2627', '2601']);
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'PROTOCOL_CONNECTION_LOST', '57P01', '57P03']);

/** The driver's own reason, the SQL knex put in front of it removed. */
function driverReason(error: Error, parts: Compiled[], text?: string): string {
  let message = (error as {sqlMessage?: string}).sqlMessage ?? error.message;
  for (const part of parts) {
    for (const sql of [part.sql, part.toNative?.().sql, text]) {
      if (sql && message.startsWith(`${sql} - `)) message = message.slice(sql.length + 3);
    }
  }
  return message.split('\n')[0] ?? message;
}

export function asWriteError(error: unknown, parts: Compiled[] = [], text?: string): WorkbenchError {
  if (isWorkbenchError(error)) return error;
  if (!(error instanceof Error)) return new WorkbenchError('internal', String(error));
  const code = String((error as {code?: unknown}).code ?? (error as {number?: unknown}).number ?? '');
  const reason = driverReason(error, parts, text);
  if (UNAVAILABLE_CODES.has(code) || /Timeout acquiring a connection/.test(error.message))
    return new WorkbenchError('database_unavailable', `the database is unavailable: ${reason}`);
  if (CONFLICT_CODES.has(code)) return new WorkbenchError('conflict', `the write conflicts with an existing row: ${reason}`);
  // SQLITE_FULL, PostgreSQL's 53100, MariaDB's ER_DISK_FULL: the environment's, not the request's (format-error.ts says the same).
  if (environmentFault(error) === 'disk_full') return new WorkbenchError('disk_full', 'the database’s disk is full');
  return new WorkbenchError('invalid_argument', `the database refused the write: ${reason}`);
}
