import {Deduper, type ErrorGroup} from './dedupe.js';
import {browserJsShape, customLogShape, diagnosticShape, httpShape, processAlertShape} from './normalize.js';
import {compareGroups} from './order.js';
import {includesProcesses, includesProxy, type Scope} from './scope.js';
import type {ErrorShape} from './shape.js';
import type {ErrorSources} from './types.js';

/**
 * The inbox pipeline shared by get_errors and get_incidents: every record in scope and recent
 * enough, shaped, filtered, deduplicated and sorted (errors first, most recent first).
 */
export interface CollectOptions {
  scope: Scope;
  /** Epoch ms; occurrences before it are left out (an alert counts by its last occurrence). */
  cutoff: number;
  includeWarnings: boolean;
}

export function collectGroups(sources: ErrorSources, {scope, cutoff, includeWarnings}: CollectOptions): ErrorGroup[] {
  const deduper = new Deduper();
  const keep = (shape: ErrorShape | null): shape is ErrorShape => shape !== null && (includeWarnings || shape.severity === 'error');

  if (includesProcesses(scope)) {
    for (const alert of sources.processAlerts) {
      if (alert.lastSeen < cutoff) continue;
      if (scope.processId !== undefined && alert.processId !== scope.processId) continue;
      const shape = processAlertShape(alert);
      const run = alert.run ?? 1;
      const currentRun = sources.processRuns?.[alert.processId] ?? run;
      if (keep(shape)) deduper.add(shape, alert.count, alert.firstSeen, alert.lastSeen, {run, currentRun, frames: alert.frames});
    }
  }

  for (const proxy of sources.proxies) {
    if (!includesProxy(scope, proxy.id)) continue;
    for (const entry of proxy.http) {
      // Cheap checks first: most traffic is 2xx/3xx and never needs a shape.
      const status = entry.status;
      if (status !== 0 && (status < 400 || status > 599)) continue;
      if (!includeWarnings && status < 500 && status !== 0) continue;
      if (entry.timestamp < cutoff) continue;
      const shape = httpShape(entry);
      if (shape !== null) deduper.add(shape, 1, entry.timestamp, entry.timestamp);
    }
    for (const error of proxy.js) {
      if (error.timestamp < cutoff) continue;
      deduper.add(browserJsShape(error), 1, error.timestamp, error.timestamp);
    }
    for (const entry of proxy.custom) {
      if (entry.timestamp < cutoff) continue;
      const shape = customLogShape(entry);
      if (keep(shape)) deduper.add(shape, 1, entry.timestamp, entry.timestamp);
    }
    for (const diagnostic of proxy.diagnostics) {
      if (diagnostic.timestamp < cutoff) continue;
      const shape = diagnosticShape(diagnostic);
      if (keep(shape)) deduper.add(shape, 1, diagnostic.timestamp, diagnostic.timestamp);
    }
  }

  return deduper.groups().sort(compareGroups);
}
