import type {Severity} from './types.js';

/** What kind of trouble an inbox entry is; `get_incidents` labels entries `<severity>:<kind>`. */
export type IncidentKind =
  | 'build_error' // a process's compile alert (cleared by its next successful build)
  | 'process_error' // any other alert from a process's output
  | 'http_5xx'
  | 'http_4xx'
  | 'transport' // a proxied request that got no response (status 0)
  | 'js_error' // a runtime exception in a proxied page
  | 'console_error' // __devtool.log at level error
  | 'console_warn' // __devtool.log at level warn
  | 'proxy_error' // a proxy diagnostic at level error
  | 'proxy_warning'; // a proxy diagnostic at level warning

/**
 * The parts of one occurrence that do not change when it recurs: computed once per stored record
 * and cached. `key` joins the four fields dedupe compares (spec 1, get_errors rule 1).
 */
export interface ErrorShape {
  key: string;
  source: string;
  severity: Severity;
  kind: IncidentKind;
  category: string;
  message: string;
  location: string;
  page: string;
  /** The project a process alert came from: in its incident's id, not in its source (`process:web` inside the project). */
  scope?: string;
}

export function makeShape(fields: Omit<ErrorShape, 'key'>): ErrorShape {
  return {key: dedupeKey(fields.source, fields.category, fields.message, fields.location), ...fields};
}

export function dedupeKey(source: string, category: string, message: string, location: string): string {
  return `${source}\u0000${category}\u0000${message}\u0000${location}`;
}
