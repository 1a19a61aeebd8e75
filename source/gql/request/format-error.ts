import {GraphQLError, type GraphQLFormattedError} from 'graphql';
import {describeError, environmentFault, isWorkbenchError} from '../../core/errors.js';
import {driverWords} from '../../storage/driver-words.js';

/**
 * The one wording of a failure that is not GraphQL's own, for the resolvers (query/errors.ts)
 * and for the answer (formatGqlError below) alike: a WorkbenchError (a refused limit, a denied
 * table, a conflicting write) keeps its message and code; a statement past its timeout says so;
 * a lost database says so in one sentence (`database_unavailable`), without the SQL knex puts
 * in front of the driver's words; any other database error is `database error: <driver's words>`.
 */
export function failureWords(error: unknown): {message: string; code: string} {
  if (isWorkbenchError(error)) return {message: error.message, code: error.code};
  const text = describeError(error);
  if (/Defined query timeout/.test(text)) return {message: 'the query took longer than its timeout and was cancelled', code: 'request_timeout'};
  const fault = environmentFault(error);
  if (fault === 'database_unavailable' || /Connection lost|server closed the connection|Cannot enqueue|connection is in closed state/i.test(text))
    return {message: `the database cannot be reached (${driverWords(error)}); retry when it is back`, code: 'database_unavailable'};
  if (fault === 'disk_full') return {message: 'the database’s disk is full', code: 'disk_full'};
  return {message: `database error: ${driverWords(error).trim() || 'the statement failed'}`, code: 'database_error'};
}

/**
 * An error as a client sees it in `errors[]`, over HTTP and in-process alike (both go through
 * http-handler.ts): GraphQL's own errors (syntax, validation, and those the resolvers worded)
 * pass as graphql-js gives them — message, locations, path, extensions — and a failure under one
 * of them is worded by failureWords, its code in `extensions.code`.
 */
export function formatGqlError(error: unknown): GraphQLFormattedError {
  const graphql = error instanceof GraphQLError ? error : undefined;
  const original = graphql ? graphql.originalError : error;
  const base = graphql ? graphql.toJSON() : {message: describeError(error)};
  if (original === undefined || original === null || original instanceof GraphQLError) return base;
  const words = failureWords(original);
  return {...base, message: words.message, extensions: {...base.extensions, code: words.code}};
}
