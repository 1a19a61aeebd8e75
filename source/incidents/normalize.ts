import {browserLocation, splitJsMessage} from './browser-error.js';
import {extractHttpMessage, statusCategory} from './http-message.js';
import {isNoise} from './noise.js';
import {requestPath} from './request-path.js';
import {BROWSER_JS_SEVERITY, customLogSeverity, diagnosticSeverity, httpSeverity, processSeverity} from './severity.js';
import {makeShape, type ErrorShape} from './shape.js';
import type {BrowserJsError, CustomLogEntry, HttpLogEntry, ProcessAlert, ProxyDiagnostic, Severity} from './types.js';
import {truncateText} from './truncate.js';

/**
 * Each stored record as an inbox entry shape (source, severity, kind, category, message, location,
 * page), or null when the record is no error (a 200, an info log, HTTP noise).
 *
 * Shapes are cached per record object, so a query over 10,000 entries parses each response body
 * once in the record's lifetime, not once per query. The stores never change the fields a shape is
 * built from (an alert's count and timestamps move, and those are read live), except that a proxy
 * may log a request before its response arrives: an HTTP shape is rebuilt when its entry's status,
 * body, content type or error changed.
 */

const shapes = new WeakMap<object, ErrorShape | null>();

interface HttpMemo {
  status: number;
  body: string | undefined;
  contentType: string | undefined;
  error: string | undefined;
  shape: ErrorShape | null;
  /** httpDetail of the entry; '' when it is no error. */
  detail: string;
}

const httpMemos = new WeakMap<HttpLogEntry, HttpMemo>();

function cached<T extends object>(record: T, build: (record: T) => ErrorShape | null): ErrorShape | null {
  let shape = shapes.get(record);
  if (shape === undefined) {
    shape = build(record);
    shapes.set(record, shape);
  }
  return shape;
}

export function processAlertShape(alert: ProcessAlert): ErrorShape {
  return cached(alert, buildProcessAlert)!;
}

export function httpShape(entry: HttpLogEntry): ErrorShape | null {
  return httpMemo(entry).shape;
}

/** What went wrong with a failing request: the message its response body carries, or its transport error (a failed request has no body). */
export function httpDetail(entry: HttpLogEntry): string {
  return httpMemo(entry).detail;
}

function httpMemo(entry: HttpLogEntry): HttpMemo {
  const memo = httpMemos.get(entry);
  if (memo && memo.status === entry.status && memo.body === entry.body && memo.contentType === entry.contentType && memo.error === entry.error) return memo;
  const built: HttpMemo = {status: entry.status, body: entry.body, contentType: entry.contentType, error: entry.error, shape: null, detail: ''};
  const severity = httpSeverity(entry.status);
  if (severity !== undefined && !isNoise(entry)) {
    built.detail = entry.status === 0 ? truncateText((entry.error ?? '').replace(/\s+/g, ' ').trim()) : extractHttpMessage(entry.body, entry.contentType);
    built.shape = buildHttp(entry, severity, built.detail);
  }
  httpMemos.set(entry, built);
  return built;
}

export function browserJsShape(error: BrowserJsError): ErrorShape {
  return cached(error, buildBrowserJs)!;
}

export function customLogShape(entry: CustomLogEntry): ErrorShape | null {
  return cached(entry, buildCustomLog);
}

export function diagnosticShape(diagnostic: ProxyDiagnostic): ErrorShape | null {
  return cached(diagnostic, buildDiagnostic);
}

function buildProcessAlert(alert: ProcessAlert): ErrorShape {
  return makeShape({
    source: `process:${alert.processId}`,
    severity: processSeverity(alert.severity),
    kind: alert.compile ? 'build_error' : 'process_error',
    category: alert.category,
    message: alert.message,
    location: alert.location,
    page: '',
    ...(alert.project ? {scope: alert.project} : {}),
  });
}

function buildHttp(entry: HttpLogEntry, severity: Severity, detail: string): ErrorShape {
  const request = `${(entry.method || 'GET').toUpperCase()} ${requestPath(entry.url)}`;
  return makeShape({
    source: 'proxy:http',
    severity,
    kind: entry.status === 0 ? 'transport' : entry.status >= 500 ? 'http_5xx' : 'http_4xx',
    category: statusCategory(entry.status),
    message: detail ? `${request} → ${detail}` : request,
    location: '',
    page: '',
  });
}

function buildBrowserJs(error: BrowserJsError): ErrorShape {
  const {category, message} = splitJsMessage(error.message, error.category);
  return makeShape({
    source: 'browser:js',
    severity: BROWSER_JS_SEVERITY,
    kind: 'js_error',
    category,
    message,
    location: browserLocation(error.stack),
    page: error.page ?? '',
  });
}

function buildCustomLog(entry: CustomLogEntry): ErrorShape | null {
  const severity = customLogSeverity(entry.level);
  if (severity === undefined) return null;
  return makeShape({
    source: 'browser:custom',
    severity,
    kind: severity === 'error' ? 'console_error' : 'console_warn',
    category: `log ${entry.level}`,
    message: entry.message,
    location: '',
    page: entry.page ?? '',
  });
}

function buildDiagnostic(diagnostic: ProxyDiagnostic): ErrorShape | null {
  const severity = diagnosticSeverity(diagnostic.level);
  if (severity === undefined) return null;
  return makeShape({
    source: 'proxy:diagnostic',
    severity,
    kind: severity === 'error' ? 'proxy_error' : 'proxy_warning',
    category: diagnostic.category,
    message: diagnostic.message,
    location: '',
    page: '',
  });
}
