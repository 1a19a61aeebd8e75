import {WorkbenchError} from '../core/errors.js';
import {proxyNotFound} from './error-response.js';
import type {ErrorSources} from './types.js';

/**
 * Which sources a query reads. `process_id` alone restricts the view to that process and
 * `proxy_id` alone to that proxy; both together show the two; neither shows everything.
 * '' counts as not given (some MCP clients send empty strings for unset fields).
 */
export interface Scope {
  processId?: string;
  proxyId?: string;
}

export function resolveScope(sources: ErrorSources, processId: unknown, proxyId: unknown): Scope {
  const scope: Scope = {};
  if (processId !== undefined && processId !== '') {
    if (typeof processId !== 'string') throw new WorkbenchError('invalid_argument', 'invalid process_id: use a process id string');
    if (sources.processIds && !sources.processIds.includes(processId)) {
      throw new WorkbenchError('not_found', `process "${processId}" not found`);
    }
    scope.processId = processId;
  }
  if (proxyId !== undefined && proxyId !== '') {
    if (typeof proxyId !== 'string') throw new WorkbenchError('invalid_argument', 'invalid proxy_id: use a proxy id string');
    if (!sources.proxies.some((proxy) => proxy.id === proxyId))
      throw proxyNotFound(
        proxyId,
        sources.proxies.map((proxy) => proxy.id),
      );
    scope.proxyId = proxyId;
  }
  return scope;
}

export function includesProcesses(scope: Scope): boolean {
  return scope.proxyId === undefined || scope.processId !== undefined;
}

export function includesProxy(scope: Scope, proxyId: string): boolean {
  if (scope.proxyId !== undefined) return scope.proxyId === proxyId;
  return scope.processId === undefined;
}
