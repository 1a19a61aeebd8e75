import {WorkbenchError} from '../../core/errors.js';
import type {ProxyOptions} from '../types.js';
import {parseTarget, type Target} from './target.js';

export const DEFAULT_LOG_SIZE = 1000;
export const MAX_LOG_SIZE = 100_000;
export const DEFAULT_TARGET_TIMEOUT_MS = 60_000;
const ID = /^[A-Za-z0-9._-]{1,64}$/;

export interface ResolvedOptions {
  id: string;
  target: Target;
  port: number;
  nextFree: boolean;
  host: string;
  logSize: number;
  targetTimeoutMs: number;
}

/** ProxyOptions checked and completed; anything malformed is an invalid_argument naming the field. */
export function resolveOptions(options: ProxyOptions): ResolvedOptions {
  const invalid = (message: string) => new WorkbenchError('invalid_argument', message);
  if (typeof options !== 'object' || options === null) throw invalid('proxy options are missing');
  if (typeof options.id !== 'string' || !ID.test(options.id))
    throw invalid(`proxy id ${JSON.stringify(String(options.id).slice(0, 80))} must be 1–64 characters of letters, digits, '.', '_' or '-'`);
  if (typeof options.target !== 'string') throw invalid('target must be the URL of the dev server, e.g. http://127.0.0.1:3000');
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw invalid(`port ${JSON.stringify(options.port)} must be an integer from 0 to 65535`);
  const logSize = options.logSize ?? DEFAULT_LOG_SIZE;
  if (!Number.isInteger(logSize) || logSize < 1 || logSize > MAX_LOG_SIZE)
    throw invalid(`log size ${JSON.stringify(options.logSize)} must be an integer from 1 to ${MAX_LOG_SIZE}`);
  const targetTimeoutMs = options.targetTimeoutMs ?? DEFAULT_TARGET_TIMEOUT_MS;
  if (!Number.isInteger(targetTimeoutMs) || targetTimeoutMs < 1 || targetTimeoutMs > 3_600_000)
    throw invalid(`target timeout ${JSON.stringify(options.targetTimeoutMs)} must be 1 ms to 1 hour`);
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || !/^[A-Za-z0-9.:-]{1,253}$/.test(host))
    throw invalid(`listen address ${JSON.stringify(String(host).slice(0, 80))} is not a host name or IP address`);
  return {id: options.id, target: parseTarget(options.target), port, nextFree: options.nextFree === true, host, logSize, targetTimeoutMs};
}
