import {describeError, ERROR_CODES, WorkbenchError, type ErrorCode} from '../core/errors.js';
import {httpCall, NoAnswerError, type HttpAnswer} from './http-call.js';

// Every code a workbench server answers maps back to the same WorkbenchError code here.
const KNOWN_CODES = new Set<string>(ERROR_CODES);

export interface ServerRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Raw text body (OPML) with its content type, instead of JSON. */
  text?: {body: string; type: string};
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  timeoutMs: number;
}

export interface ServerAnswer {
  status: number;
  /** The parsed JSON answer (undefined when it is not JSON). */
  body: unknown;
  text: string;
}

/**
 * One call to a workbench server's JSON API (the reader's, the gateway's), as their HTTP clients
 * make it: no answer is `daemon_not_connected` "<name> server not reachable at <base>", an answer
 * outside 2xx the server's `{error:{code,message}}` as a WorkbenchError with the same code.
 */
export async function callServer(server: {name: string; base: string}, url: URL, request: ServerRequest): Promise<ServerAnswer> {
  for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
  const headers: Record<string, string> = {accept: 'application/json', ...request.headers};
  let body: string | undefined;
  if (request.text) {
    headers['content-type'] = request.text.type;
    body = request.text.body;
  } else if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  let answer: HttpAnswer;
  try {
    answer = await httpCall(url, {method: request.method ?? 'GET', headers, body, timeoutMs: request.timeoutMs});
  } catch (error) {
    throw new WorkbenchError(
      'daemon_not_connected',
      `${server.name} server not reachable at ${server.base}: ${error instanceof NoAnswerError ? error.reason : describeError(error)}`,
    );
  }
  const {status, text} = answer;
  let parsed: unknown;
  if (answer.contentType.includes('json') && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (status < 200 || status > 299) throw answerError(server.name, status, parsed, text);
  return {status, body: parsed, text};
}

/** `http://host:port`, `http://host:port/`, `http://host:port<apiPrefix>` all name the same server; `example` is the usual address, for the error. */
export function serverBaseUrl(url: string, flag: string, example: string, apiPrefix = ''): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WorkbenchError('invalid_argument', `${flag}: "${url}" is not a URL (expected e.g. ${example})`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new WorkbenchError('invalid_argument', `${flag}: "${url}" is not an http(s) URL`);
  const path = parsed.pathname.replace(/\/+$/, '');
  return parsed.origin + (apiPrefix && path.endsWith(apiPrefix) ? path.slice(0, -apiPrefix.length) : path);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The server's `{error:{code,message}}` as a WorkbenchError; anything else by its status. */
function answerError(name: string, status: number, body: unknown, text: string): WorkbenchError {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const code =
    typeof error?.code === 'string' && KNOWN_CODES.has(error.code as ErrorCode)
      ? (error.code as ErrorCode)
      : status === 404
        ? 'not_found'
        : status < 500
          ? 'invalid_argument'
          : 'internal';
  const message = typeof error?.message === 'string' && error.message ? error.message : `${name} answered ${status}${text ? `: ${text.slice(0, 200).split('\n')[0]}` : ''}`;
  return new WorkbenchError(code, message, {status});
}
