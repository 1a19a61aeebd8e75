import type {BrowserJsError, CustomLogEntry, ErrorSources, HttpLogEntry, ProcessAlert, ProxyDiagnostic, ProxyRecords} from '../../../source/incidents/types.js';

/** Store records as the daemon holds them, for the inbox tests. */

export const NOW = Date.parse('2026-11-20T12:00:00.000Z');

export function alert(fields: Partial<ProcessAlert> & Pick<ProcessAlert, 'processId' | 'category' | 'message'>): ProcessAlert {
  const lastSeen = fields.lastSeen ?? NOW - 5_000;
  return {
    severity: 'error',
    location: '',
    compile: false,
    raw: fields.message,
    id: `${fields.processId}-${fields.category}`,
    run: 1,
    count: 1,
    firstSeen: fields.firstSeen ?? lastSeen,
    lastSeen,
    ...fields,
  };
}

export function http(fields: Partial<HttpLogEntry> & Pick<HttpLogEntry, 'url' | 'status'>): HttpLogEntry {
  return {method: 'GET', timestamp: NOW - 5_000, ...fields};
}

export function jsError(fields: Partial<BrowserJsError> & Pick<BrowserJsError, 'message'>): BrowserJsError {
  return {page: 'http://localhost:3000/', timestamp: NOW - 5_000, ...fields};
}

export function customLog(fields: Partial<CustomLogEntry> & Pick<CustomLogEntry, 'level' | 'message'>): CustomLogEntry {
  return {page: 'http://localhost:3000/', timestamp: NOW - 5_000, ...fields};
}

export function diagnostic(fields: Partial<ProxyDiagnostic> & Pick<ProxyDiagnostic, 'level' | 'message'>): ProxyDiagnostic {
  return {category: 'upstream', timestamp: NOW - 5_000, ...fields};
}

export function proxy(id: string, records: Partial<Omit<ProxyRecords, 'id'>> = {}): ProxyRecords {
  return {id, http: [], js: [], custom: [], diagnostics: [], ...records};
}

export function sources(fields: Partial<ErrorSources> = {}): ErrorSources {
  return {processAlerts: [], proxies: [], ...fields};
}
