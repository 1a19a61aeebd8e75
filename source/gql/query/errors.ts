import {GraphQLError} from 'graphql';
import {WorkbenchError, environmentFault} from '../../core/errors.js';

/**
 * Any failure of a resolver as the GraphQL error the client sees: our own errors keep their
 * message and code; a database error keeps the database's one-line reason (knex prefixes the SQL,
 * which is left out) and a lost connection says so. Never a stack.
 */
export function toGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (error instanceof WorkbenchError) return new GraphQLError(error.message, {extensions: {code: error.code}});
  const record = (error ?? {}) as {message?: unknown; code?: unknown; name?: unknown};
  const message = typeof record.message === 'string' ? record.message : String(error);
  if (/Defined query timeout/.test(message)) return new GraphQLError('the query took longer than its timeout and was cancelled', {extensions: {code: 'request_timeout'}});
  const fault = environmentFault(error);
  if (fault === 'database_unavailable' || /Connection lost|server closed the connection|Cannot enqueue|connection is in closed state/i.test(message)) {
    return new GraphQLError('the database is unavailable; try again', {extensions: {code: 'database_unavailable'}});
  }
  if (fault === 'disk_full') return new GraphQLError('the database disk is full', {extensions: {code: 'disk_full'}});
  const reason = (message.includes(' - ') ? message.slice(message.lastIndexOf(' - ') + 3) : message).split('\n')[0]?.trim() ?? '';
  return new GraphQLError(`database error: ${reason || 'the statement failed'}`, {extensions: {code: 'database_error'}});
}

/** Wraps a resolver so whatever it throws reaches the client as `toGraphQLError` says. */
export function guarded<A extends unknown[], R>(resolve: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await resolve(...args);
    } catch (error) {
      throw toGraphQLError(error);
    }
  };
}
