import {STATUS_CODES} from 'node:http';
import type {Socket} from 'node:net';
import type {FastifyError, FastifyInstance, FastifyReply, FastifyRequest} from 'fastify';
import {describeError, environmentFault, HTTP_STATUS, isWorkbenchError, type ErrorCode} from '../../source/core/errors.js';
import {takesBody} from './route-rules.js';

export interface ErrorAnswer {
  status: number;
  code: ErrorCode;
  message: string;
}

/** How a server words its errors. */
export interface ErrorWording {
  /** Largest body accepted, for the 413 message. */
  bodyLimit: number;
  /** What a refused content type should have been (default `application/json`). */
  accepts?: string;
  /** The request log a 500 points at; none: the details go to stderr. */
  logFile?: string;
  /** A sentence for a failed query or path check that says more than ajv's, when there is one. */
  validationMessage?: (validation: {instancePath?: string}[]) => string | undefined;
}

/** What errorAnswer needs to know of the request. */
export interface RequestFacts {
  contentType?: string;
  /** `POST /api/v1/feeds/:id/refresh`, when the route is known. */
  route?: string;
  /** False on a route that takes no body. */
  takesBody?: boolean;
  /** The route's own body limit, when it sets one below the app's. */
  bodyLimit?: number;
}

/**
 * Maps anything thrown in a request to a status and `{error: {code, message}}`; never a stack.
 * A WorkbenchError answers with its code's status (source/core/errors.ts HTTP_STATUS); a full
 * disk and an unreachable database are the environment's, 507 and 503; fastify's own refusals
 * keep their status under our codes; anything else is a bug: 500 with a generic message.
 */
export function errorAnswer(error: unknown, wording: ErrorWording, request: RequestFacts = {}): ErrorAnswer {
  const {contentType} = request;
  if (isWorkbenchError(error)) {
    const status = HTTP_STATUS[error.code] ?? 500;
    return error.code === 'internal' ? internal(wording) : {status, code: error.code, message: error.message};
  }
  const fault = environmentFault(error);
  if (fault === 'disk_full') return {status: HTTP_STATUS.disk_full, code: fault, message: 'the server’s disk is full; free some space and retry'};
  if (fault === 'database_unavailable')
    return {status: HTTP_STATUS.database_unavailable, code: fault, message: `the database cannot be reached (${faultReason(error)}); retry when it is back`};
  const fastify = error as Partial<FastifyError> & {validationContext?: string};
  if (fastify.validation) {
    const isBody = fastify.validationContext === 'body';
    return {
      status: 400,
      code: isBody ? 'invalid_body' : 'invalid_argument',
      message:
        (!isBody && wording.validationMessage?.(fastify.validation)) || unknownField(fastify.validation, fastify.validationContext) || (fastify.message ?? 'invalid request'),
    };
  }
  if (fastify.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fastify.statusCode === 413) {
    return {status: 413, code: 'payload_too_large', message: `request body is larger than ${sizeText(request.bodyLimit ?? wording.bodyLimit)}`};
  }
  if (fastify.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    if (request.takesBody === false) return {status: 400, code: 'invalid_body', message: `${request.route ?? 'this endpoint'} takes no body`};
    return {status: 415, code: 'invalid_body', message: `content type ${JSON.stringify(contentType ?? '')} is not accepted here; send ${wording.accepts ?? 'application/json'}`};
  }
  if (fastify.code === 'FST_ERR_BAD_URL') return {status: 400, code: 'invalid_argument', message: 'the path is not valid URL encoding'};
  if (fastify.code === 'FST_ERR_MAX_PARAM_LENGTH') return {status: HTTP_STATUS.uri_too_long, code: 'uri_too_long', message: 'a path segment is too long'};
  if (fastify.statusCode !== undefined && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    // JSON syntax errors, empty or mis-sized bodies, prototype poisoning.
    const message = error instanceof SyntaxError ? `body is not valid JSON: ${error.message}` : (fastify.message ?? 'bad request');
    return {status: fastify.statusCode === 404 ? 404 : 400, code: fastify.statusCode === 404 ? 'not_found' : 'invalid_body', message};
  }
  return internal(wording);
}

function sizeText(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}

function internal(wording: ErrorWording): ErrorAnswer {
  const where = wording.logFile ? `the server log has the details: ${wording.logFile}` : 'the server’s stderr has the details';
  return {status: 500, code: 'internal', message: `internal error; ${where}`};
}

// The driver's words without the SQL knex puts before them ("select … - connect ECONNREFUSED 127.0.0.1:5432"), short.
function faultReason(error: unknown): string {
  const text = describeError(error).replace(/^[\s\S]* - /, '');
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** Sends an answer in the one error shape, and logs a 5xx once (a full disk or a lost database in one line). */
export function sendError(answer: ErrorAnswer, error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // The driver's words only: knex puts the statement with its values first, and values hold tokens.
  if (answer.code === 'disk_full' || answer.code === 'database_unavailable') request.log.error(`${answer.code}: ${faultReason(error)}`);
  else if (answer.status >= 500) request.log.error({err: error}, 'request failed');
  return reply.status(answer.status).send({error: {code: answer.code, message: answer.message}});
}

/** One error handler, one not-found handler, and fastify's routing refusals (bad URL encoding, over-long parameters) in the same shape. */
export function installErrorHandling(app: FastifyInstance, wording: ErrorWording): void {
  app.setErrorHandler((error, request, reply) => {
    const route = request.routeOptions.url === undefined ? undefined : `${request.method} ${request.routeOptions.url}`;
    const answer = errorAnswer(error, wording, {
      contentType: request.headers['content-type'],
      route,
      takesBody: route === undefined ? undefined : takesBody(request.routeOptions),
      bodyLimit: request.routeOptions.bodyLimit,
    });
    return sendError(answer, error, request, reply);
  });
  app.setNotFoundHandler((request, reply) => reply.status(404).send({error: {code: 'not_found', message: `no route ${request.method} ${request.url.split('?')[0]}`}}));
}

/** fastify's `frameworkErrors`: failures before a route is found, answered like every other error. */
export function frameworkErrors(wording: ErrorWording) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => sendError(errorAnswer(error, wording), error, request, reply);
}

/**
 * The http server's `clientError` (fastify's `clientErrorHandler`): requests Node refuses before
 * fastify sees them — malformed HTTP, headers over the size limit, a client too slow to send its
 * request — get the same JSON body on the raw socket, then the connection closes.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException & {code?: string}, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message]: [number, ErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [HTTP_STATUS.headers_too_large, 'headers_too_large', 'the request headers are larger than the server accepts']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [HTTP_STATUS.request_timeout, 'request_timeout', 'the request took too long to arrive']
        : [HTTP_STATUS.bad_request, 'bad_request', `malformed HTTP request${error.code ? ` (${error.code})` : ''}`];
  const body = JSON.stringify({error: {code, message}});
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** ajv says "must NOT have additional properties"; a user needs to know which one. */
function unknownField(validation: Array<{keyword?: string; instancePath?: string; params?: unknown}>, context: string | undefined): string | undefined {
  const first = validation[0];
  const name = (first?.params as {additionalProperty?: unknown} | undefined)?.additionalProperty;
  if (first?.keyword !== 'additionalProperties' || typeof name !== 'string') return undefined;
  const where = `${context ?? 'request'}${first.instancePath ? first.instancePath.replace(/\//g, '.') : ''}`;
  return `${where} has no field "${name.slice(0, 100)}"`;
}
