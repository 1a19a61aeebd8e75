import {STATUS_CODES} from 'node:http';
import {htmlTitle, htmlToLine} from '../text/html-text.js';
import {toTerminalLine} from '../text/terminal-safe.js';
import {truncateText} from './truncate.js';

/**
 * Message extraction for HTTP errors (spec 1, get_errors rule 4): what a response body says went
 * wrong, at most 200 characters, '' when it says nothing usable. The body is a remote server's:
 * the message keeps no escape sequence or control character (`&#27;` in HTML decodes to one).
 */

// Checked in this order; the first one holding text wins.
const JSON_FIELDS = ['message', 'error', 'detail', 'error_description'] as const;
const WHITESPACE = /\s+/g;
// Bodies that are never a message.
const BINARY_TYPE = /^(image|audio|video|font)\/|^application\/(octet-stream|pdf|zip|gzip|wasm)/i;

type BodyKind = 'json' | 'html' | 'text' | 'binary';

export function extractHttpMessage(body: string | undefined, contentType?: string): string {
  if (!body) return '';
  const trimmed = body.trim();
  if (trimmed === '') return '';
  switch (bodyKind(trimmed, contentType)) {
    case 'json': {
      const parsed = parseJson(trimmed);
      // A body labelled JSON that does not parse (often cut short) is still readable text.
      if (parsed === undefined) return plainText(trimmed);
      return truncateText(collapse(messageFromJson(parsed)));
    }
    case 'html':
      return truncateText(collapse(htmlToLine(trimmed) || htmlTitle(trimmed)));
    case 'text':
      return plainText(trimmed);
    default:
      return '';
  }
}

/** `500 Internal Server Error`; `transport error` when no response came (status 0). */
export function statusCategory(status: number): string {
  if (status === 0) return 'transport error';
  const reason = STATUS_CODES[status];
  return reason ? `${status} ${reason}` : String(status);
}

function bodyKind(body: string, contentType: string | undefined): BodyKind {
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('json')) return 'json';
  if (type.includes('html') || type.includes('xhtml')) return 'html';
  if (type.startsWith('text/')) return 'text';
  if (type !== '' && BINARY_TYPE.test(type)) return 'binary';
  // No or unhelpful content type: sniff the body.
  if (body[0] === '{' || body[0] === '[') return 'json';
  if (body[0] === '<' && body.includes('>')) return 'html';
  return 'text';
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function messageFromJson(value: unknown): string {
  const object = Array.isArray(value) ? value[0] : value;
  if (!isRecord(object)) return '';
  for (const field of JSON_FIELDS) {
    const text = textOf(object[field]);
    if (text !== '') return text;
  }
  return '';
}

// A field's text: a string, an object's `message` (`{"error": {"message": ...}}`), or the first
// item of a list such as FastAPI's `{"detail": [{"msg": ...}]}`.
function textOf(value: unknown, depth = 0): string {
  if (typeof value === 'string') return value.trim();
  if (depth > 2) return '';
  if (Array.isArray(value)) return value.length > 0 ? textOf(value[0], depth + 1) : '';
  if (isRecord(value)) return textOf(value.message ?? value.msg, depth + 1);
  return '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function plainText(body: string): string {
  return truncateText(collapse(body));
}

function collapse(text: string): string {
  return toTerminalLine(text).replace(WHITESPACE, ' ').trim();
}
