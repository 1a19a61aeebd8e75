import {WorkbenchError, isWorkbenchError} from '../../core/errors.js';
import {htmlToLine} from '../../text/html-text.js';
import {redact} from '../credentials/redact.js';
import type {Transport} from '../types.js';
import {doubledVersion} from './endpoint.js';

interface Where {
  /** Never in a message, whatever the endpoint echoed back. */
  secret: string;
  endpoint: string;
  transport: Transport;
  /** Where the credential came from (never the secret). */
  source: string;
  baseUrl: string;
}

const HTML = /^\s*(<!doctype html|<html|<head|<body)/i;

/**
 * An SDK failure as one sentence a user can act on: a refused key names where the key came from;
 * an HTML page (a wrong base URL, a proxy's error page) is named as such rather than shown; a
 * doubled version segment is explained; an unreachable or slow endpoint names the URL.
 */
export function modelError(error: unknown, where: Where): WorkbenchError {
  const made = explain(error, where);
  return new WorkbenchError(made.code, redact(made.message, [where.secret]), made.details);
}

function explain(error: unknown, where: Where): WorkbenchError {
  if (isWorkbenchError(error)) return error;
  const failure = error as {status?: unknown; message?: unknown; error?: unknown; cause?: {code?: string; message?: string}; name?: string; constructor?: {name?: string}};
  const kind = failure.constructor?.name ?? failure.name ?? '';
  const message = String(failure.message ?? error);
  if (kind.includes('Timeout'))
    return new WorkbenchError(
      'model_unreachable',
      `the model endpoint ${where.endpoint} did not answer in time (${kind === 'APIConnectionTimeoutError' ? 'request timed out' : message})`,
    );
  if (typeof failure.status !== 'number') {
    const cause = causeCode(error) ?? message;
    return new WorkbenchError('model_unreachable', `the model endpoint ${where.endpoint} is not reachable: ${cause}`);
  }
  const status = failure.status;
  const body = bodyText(failure.error, message);
  if (HTML.test(body) || /^\d{3}\s+<(!doctype|html)/i.test(message)) {
    if (status === 404 && where.transport === 'messages' && /\/v\d+[a-z0-9]*\/v1\/messages$/i.test(new URL(where.endpoint).pathname)) return doubledVersion(where.baseUrl);
    const title = htmlToLine(/<title>([\s\S]*?)<\/title>/i.exec(body)?.[1] ?? /<h1>([\s\S]*?)<\/h1>/i.exec(body)?.[1] ?? '').slice(0, 80);
    return new WorkbenchError(
      'model_error',
      `${where.endpoint} answered ${status} with an HTML page${title ? ` ("${title}")` : ''}, not the ${where.transport} API: check --base-url (${where.transport === 'messages' ? 'the base without a version segment, e.g. https://api.anthropic.com' : 'the API root with its version segment, e.g. https://openrouter.ai/api/v1'})`,
    );
  }
  const detail = apiMessage(failure.error) ?? message.replace(/^\d{3}\s*/, '');
  if (status === 401 || status === 403) return new WorkbenchError('unauthorized', `the endpoint refused the credential from ${where.source} (${status}): ${detail}`);
  return new WorkbenchError('model_error', `${where.endpoint} answered ${status}: ${detail}`);
}

/** A 200 that is not an event stream: an HTML page or a proxy answering in its own format. */
export function notAnEventStream(status: number, what: string | null): WorkbenchError {
  return new WorkbenchError('model_error', `the endpoint answered ${status} with ${what ?? 'no content type'} instead of a streamed API answer: check --base-url and --api`);
}

/** The errno code deepest in the cause chain (fetch wraps ECONNREFUSED in `fetch failed`), else the deepest message (`bad port`). */
function causeCode(error: unknown): string | undefined {
  let code: string | undefined;
  let message: string | undefined;
  for (
    let current = error as {cause?: unknown; code?: unknown; message?: unknown} | undefined, depth = 0;
    current && depth < 5;
    current = current.cause as typeof current, depth++
  ) {
    if (typeof current.code === 'string') code = current.code;
    if (typeof current.message === 'string') message = current.message;
  }
  return code ?? message;
}

function bodyText(body: unknown, message: string): string {
  if (typeof body === 'string') return body;
  return message.replace(/^\d{3}\s*/, '');
}

/** The vendor's own words: `{error: {message}}` (both formats) or `{message}`. */
function apiMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as {error?: {message?: unknown; type?: unknown}; message?: unknown; type?: unknown};
  const inner = record.error && typeof record.error === 'object' ? record.error : record;
  const text = typeof inner.message === 'string' ? inner.message : undefined;
  const type = typeof inner.type === 'string' ? inner.type : undefined;
  if (!text) return undefined;
  return type ? `${type}: ${text}` : text;
}
