import type {Target} from './target.js';

/** Why a request to the target failed, in words a developer acts on; `code` is the diagnostic's category. */
export interface TargetFailure {
  code: string;
  reason: string;
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused — is the dev server running?',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'no answer in time',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  EPIPE: 'the connection was closed while sending',
};

// undici's names for what the socket layer calls by errno.
const UNDICI: Record<string, string> = {
  UND_ERR_HEADERS_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_BODY_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_CONNECT_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_SOCKET: 'ECONNRESET',
  UND_ERR_CLOSED: 'ECONNRESET',
};

export function describeFailure(error: unknown): TargetFailure {
  const {code, message, name} = (error ?? {}) as {code?: unknown; message?: unknown; name?: unknown};
  const text = typeof code === 'string' ? (UNDICI[code] ?? code) : 'EPROXY';
  if (text.startsWith('HPE_') || name === 'HTTPParserError') {
    const detail = typeof message === 'string' ? message.split('\n')[0]!.slice(0, 200) : text;
    return {code: 'malformed_response', reason: `the target sent a malformed HTTP response (${detail})`};
  }
  return {code: text, reason: REASONS[text] ?? (typeof message === 'string' ? message.split('\n')[0]!.slice(0, 200) : 'the request failed')};
}

export function failureMessage(target: Target, failure: TargetFailure, midStream: boolean): string {
  return midStream ? `the target ${target.text} broke off a response: ${failure.reason}` : `cannot reach the target ${target.text}: ${failure.reason}`;
}

const ESCAPES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** The page the browser gets instead of a hang: what failed, and (for a page load) a retry every few seconds. */
export function failurePage(target: Target, failure: TargetFailure, method: string, path: string, retry: boolean): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>502 — dev server unreachable</title>${retry ? '<meta http-equiv="refresh" content="3">' : ''}
<style>body{font:15px/1.5 system-ui,sans-serif;margin:3em auto;max-width:42em;color:#222}code{background:#f3f3f3;padding:0 .3em}</style></head>
<body><h1>502 Bad Gateway</h1>
<p>The workbench dev proxy could not get an answer from <code>${escapeHtml(target.text)}</code> for <code>${escapeHtml(method)} ${escapeHtml(path.slice(0, 500))}</code>:</p>
<p><strong>${escapeHtml(failure.reason)}</strong> (<code>${escapeHtml(failure.code)}</code>)</p>
${retry ? '<p>This page retries every 3 seconds.</p>' : ''}</body></html>
`;
}
