import type {UnifiedError} from '../../incidents/types.js';
import type {ToolContext} from '../../tools/registry-types.js';
import {getErrors} from '../../tools/get-errors.js';
import {daemonWatch} from './daemonWatch.js';
import type {Watch} from './watch.js';

/** Incidents the pane and the status bar show: `workbench get-errors --limit 200`, warnings included. */
export const INCIDENT_LIMIT = 200;

/** The Incidents pane's port: the `get_errors` tool handler, entries in the inbox's own order (errors first, then newest). */
export interface IncidentsPort {
  list(): Promise<UnifiedError[]>;
  /** Calls `onChange` when the inbox may have changed: the daemon's `alerts` events. */
  watch: Watch;
}

export function createIncidentsPort(context: ToolContext, options: {retryMs: number}): IncidentsPort {
  return {
    list: () => getErrors({limit: INCIDENT_LIMIT, include_warnings: true}, context),
    watch: daemonWatch(() => context.daemon(), {topic: 'alerts', retryMs: options.retryMs}),
  };
}

/** Identity of an incident across fetches: the fields get-errors dedupes on. */
export function incidentKey(entry: UnifiedError): string {
  return [entry.source, entry.category, entry.message, entry.location].join('\u0000');
}
