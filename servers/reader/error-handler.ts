import type {FastifyError, FastifyInstance} from 'fastify';
import {isWorkbenchError, type ErrorCode} from '../../source/core/errors.js';
import {MAX_PAGE_SIZE} from '../../source/feeds/service/index.js';
import {takesBody} from './route-rules.js';

/** HTTP status of each error code the reader answers (see README.md). */
export const STATUS_OF: Partial<Record<ErrorCode, number>> = {
  invalid_argument: 400,
  invalid_body: 400,
  config_invalid: 400,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  not_a_feed: 422,
  feed_unreachable: 502,
  internal: 500,
};

export interface ErrorAnswer {
  status: number;
  code: ErrorCode;
  message: string;
}

/** What errorAnswer needs to know of the request. */
export interface RequestFacts {
  contentType?: string;
  /** `POST /api/v1/feeds/:id/refresh`, when the route is known. */
  route?: string;
  /** False on a route that takes no body. */
  takesBody?: boolean;
}

/** Maps anything thrown in a request to a status and `{error: {code, message}}`; never a stack. */
export function errorAnswer(error: unknown, bodyLimit: number, request: RequestFacts = {}): ErrorAnswer {
  const {contentType} = request;
  if (isWorkbenchError(error)) {
    const status = STATUS_OF[error.code] ?? 500;
    return status === 500 ? internal() : {status, code: error.code, message: error.message};
  }
  const fastify = error as Partial<FastifyError> & {validationContext?: string};
  if (fastify.validation) {
    const isBody = fastify.validationContext === 'body';
    return {status: 400, code: isBody ? 'invalid_body' : 'invalid_argument', message: (!isBody && queryMessage(fastify.validation)) || (fastify.message ?? 'invalid request')};
  }
  if (fastify.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fastify.statusCode === 413) {
    return {status: 413, code: 'payload_too_large', message: `request body is larger than ${Math.round(bodyLimit / 1024)} KB`};
  }
  if (fastify.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    if (request.takesBody === false) return {status: 400, code: 'invalid_body', message: `${request.route ?? 'this endpoint'} takes no body`};
    return {status: 415, code: 'invalid_body', message: `content type ${JSON.stringify(contentType ?? '')} is not accepted here; send application/json (XML to /opml)`};
  }
  if (fastify.statusCode !== undefined && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    // JSON syntax errors, empty or mis-sized bodies, prototype poisoning.
    const message = error instanceof SyntaxError ? `body is not valid JSON: ${error.message}` : (fastify.message ?? 'bad request');
    return {status: fastify.statusCode === 404 ? 404 : 400, code: fastify.statusCode === 404 ? 'not_found' : 'invalid_body', message};
  }
  return internal();
}

// ajv's "must be >= 1" says nothing useful of `limit=%20` (a blank reads as 0); one sentence fits every bad limit.
function queryMessage(validation: {instancePath?: string}[]): string | undefined {
  return validation[0]?.instancePath === '/limit' ? `limit must be a whole number 1–${MAX_PAGE_SIZE}` : undefined;
}

function internal(): ErrorAnswer {
  return {status: 500, code: 'internal', message: 'internal error; the server log has the details'};
}

/** One error handler and one not-found handler for the whole app. */
export function installErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error, request, reply) => {
    const route = request.routeOptions.url === undefined ? undefined : `${request.method} ${request.routeOptions.url}`;
    const answer = errorAnswer(error, bodyLimit, {contentType: request.headers['content-type'], route, takesBody: route === undefined ? undefined : takesBody(request.routeOptions)});
    if (answer.status >= 500) request.log.error({err: error}, 'request failed');
    return reply.status(answer.status).send({error: {code: answer.code, message: answer.message}});
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({error: {code: 'not_found', message: `no route ${request.method} ${request.url.split('?')[0]}`}}),
  );
}
