/** Shapes shared by the alert scanner, the daemon's stores and the error inbox (spec 1). */

export type Severity = 'error' | 'warning';
export type AlertSeverity = 'error' | 'warning' | 'info';

/** Element of `get_errors` raw output: exactly these 8 fields, in this order. */
export interface UnifiedError {
  source: string;
  severity: Severity;
  category: string;
  message: string;
  location: string;
  page: string;
  count: number;
  last_seen: string;
}

/** What the alert scanner finds in one process's output. */
export interface ScannedAlert {
  severity: AlertSeverity;
  /** Error class or rule name: `TypeError`, `TS2322`, `panic`, `EADDRINUSE`, ... */
  category: string;
  message: string;
  /** First application frame `<file>:<line>:<col>` (or `<file>:<line>`); '' when none. */
  location: string;
  /** Compile errors are cleared by a later build-success line of the same process. */
  compile: boolean;
  /** The alert's text as printed (ANSI stripped), stack included; for the expanded view. */
  raw: string;
  /** The stack frames the scanner saw under the alert, as printed (trimmed), innermost first as the runtime printed them; absent when none. */
  frames?: string[];
}

/** One entry of the daemon's 500-entry alert ring. */
export interface ProcessAlert extends ScannedAlert {
  id: string;
  processId: string;
  /** The project root the process belongs to, when the daemon tells (its incident ids then differ from another project's same-named process). */
  project?: string;
  /** The run of the process (1 = first start, +1 at every start or restart of the same id) it was last seen in. */
  run: number;
  count: number;
  firstSeen: number; // epoch ms
  lastSeen: number; // epoch ms
}

/** One proxied request as recorded in a proxy's traffic log (fed by the proxy issue). */
export interface HttpLogEntry {
  method: string;
  url: string; // path with query, or absolute URL
  status: number; // 0 when the request failed in transport
  contentType?: string;
  body?: string; // response body, possibly truncated
  error?: string; // transport error text when status is 0
  page?: string; // page URL that issued it, if known
  timestamp: number; // epoch ms
  /** W3C trace id (32 hex) of the `traceparent` the proxy sent with it; get_incidents finds it in a server's output. */
  traceId?: string;
  /** Page session (one browser tab) that issued it, when known. */
  session?: string;
}

export interface BrowserJsError {
  message: string;
  category?: string; // e.g. TypeError; derived from the message when absent
  stack?: string;
  page: string;
  timestamp: number;
  /** Page session (one browser tab) it came from, when known. */
  session?: string;
}

export interface CustomLogEntry {
  level: 'error' | 'warn' | 'info' | 'log' | 'debug';
  message: string;
  page: string;
  timestamp: number;
}

export interface ProxyDiagnostic {
  level: 'error' | 'warning' | 'info';
  category: string;
  message: string;
  timestamp: number;
}

/** Everything one proxy has captured; the daemon keeps one per running proxy. */
export interface ProxyRecords {
  id: string;
  http: HttpLogEntry[];
  js: BrowserJsError[];
  custom: CustomLogEntry[];
  diagnostics: ProxyDiagnostic[];
}

/** Input of queryErrors: what the store holds right now. */
export interface ErrorSources {
  processAlerts: ProcessAlert[];
  proxies: ProxyRecords[];
  /** Known process ids (running or exited), so an unknown process_id can be told apart. */
  processIds?: string[];
  /** Each process's current run (ProcessInfo.run): an alert from an earlier one is marked with its run. */
  processRuns?: Record<string, number>;
}

/** `get_errors` parameters after validation (spec 1, table get_errors); the schema is `errorQuery`. */
export type {ErrorQuery} from './error-query.js';
