import type {AlertSeverity, CustomLogEntry, ProxyDiagnostic, Severity} from './types.js';

/**
 * The severity mapping table of spec 1 (get_errors). `undefined` means the record is not an error
 * or warning at all and stays out of the inbox.
 */

export function processSeverity(severity: AlertSeverity): Severity {
  return severity === 'error' ? 'error' : 'warning';
}

/** Every runtime exception a page throws is an error. */
export const BROWSER_JS_SEVERITY: Severity = 'error';

/** 5xx and transport failures (status 0) are errors, 4xx warnings, anything else no error. */
export function httpSeverity(status: number): Severity | undefined {
  if (status === 0) return 'error';
  if (status >= 500 && status <= 599) return 'error';
  if (status >= 400 && status <= 499) return 'warning';
  return undefined;
}

export function diagnosticSeverity(level: ProxyDiagnostic['level']): Severity | undefined {
  if (level === 'error') return 'error';
  if (level === 'warning') return 'warning';
  return undefined;
}

export function customLogSeverity(level: CustomLogEntry['level']): Severity | undefined {
  if (level === 'error') return 'error';
  if (level === 'warn') return 'warning';
  return undefined;
}
