import {WorkbenchError} from '../../core/errors.js';
import type {GqlExecuteResult} from '../types.js';

/**
 * A GraphQL-over-HTTP answer as the result a face shows, read the same way whether a server sent
 * it or the in-process handler made it: GraphQL's `{data, errors}` as it is (request errors come
 * with a 4xx and a result holding them); the server kit's own refusals (Host, body size), which
 * come as `{error: {code, message}}`, as one error; anything else is the server's fault.
 */
export function resultOfAnswer(status: number, text: string, where: string): GqlExecuteResult {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new WorkbenchError('internal', `the GraphQL server at ${where} answered ${status} without JSON`);
  }
  const record = (typeof body === 'object' && body !== null ? body : {}) as {data?: unknown; errors?: unknown; error?: {code?: unknown; message?: unknown}};
  if (record.error && typeof record.error.message === 'string')
    return {errors: [{message: record.error.message, ...(typeof record.error.code === 'string' ? {extensions: {code: record.error.code}} : {})}]};
  if (!('data' in record) && !Array.isArray(record.errors)) throw new WorkbenchError('internal', `the GraphQL server at ${where} answered ${status} with no data and no errors`);
  return record as GqlExecuteResult;
}
