import {GraphQLError, type GraphQLFormattedError} from 'graphql';
import {describeError, environmentFault, isWorkbenchError} from '../../core/errors.js';

/**
 * An error as a client sees it in `errors[]`: a WorkbenchError (a refused limit, a denied table)
 * keeps its message and says its code in `extensions.code`; a lost database says so in one
 * sentence (`database_unavailable`), without the SQL knex puts in front of the driver's words;
 * any other database error keeps only the driver's words. GraphQL's own errors (syntax,
 * validation) pass as they are.
 */
export function formatGqlError(error: unknown): GraphQLFormattedError {
  const graphql = error instanceof GraphQLError ? error : undefined;
  const original = graphql ? graphql.originalError : error;
  const base = graphql ? graphql.toJSON() : {message: describeError(error)};
  if (original === undefined || original === null || original instanceof GraphQLError) return base;
  if (isWorkbenchError(original)) return {...base, message: original.message, extensions: {...base.extensions, code: original.code}};
  const fault = environmentFault(original);
  if (fault === 'database_unavailable') {
    return {...base, message: `the database cannot be reached (${driverWords(original)}); retry when it is back`, extensions: {...base.extensions, code: fault}};
  }
  if (fault === 'disk_full') return {...base, message: 'the database’s disk is full', extensions: {...base.extensions, code: fault}};
  return {...base, message: driverWords(original)};
}

// knex prefixes the driver's message with the statement ("select … - connect ECONNREFUSED"); the client gets the driver's part.
function driverWords(error: unknown): string {
  const text = describeError(error);
  const words = /^\s*(select|insert|update|delete|with|begin|commit|rollback|call|exec)\b[\s\S]* - (?<reason>[^\n]+)$/i.exec(text)?.groups?.reason ?? text;
  return words.length > 300 ? `${words.slice(0, 297)}…` : words;
}
