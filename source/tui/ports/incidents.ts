import type {Incident} from '../../incidents/incidents.js';
import {getIncidents} from '../../tools/get-incidents.js';
import type {ToolContext} from '../../tools/registry-types.js';
import {daemonWatch} from './daemonWatch.js';
import type {Watch} from './watch.js';

/**
 * The Incidents pane's port: the `get_incidents` tool handler, as `workbench get-incidents` and
 * MCP call it — near-duplicates grouped, in the inbox's own order (errors first, then newest).
 */
export interface IncidentsPort {
  list(): Promise<Incident[]>;
  /** Calls `onChange` when the inbox may have changed: the daemon's `inbox` events (process alerts and proxy errors alike). */
  watch: Watch;
}

const PANE_LIMIT = 10_000;

export function createIncidentsPort(context: ToolContext, options: {retryMs: number}): IncidentsPort {
  return {
    // The pane scrolls the whole inbox (the alert ring holds 500); the tool's default page is for agents.
    list: async () => (await getIncidents({limit: PANE_LIMIT}, context)).incidents,
    watch: daemonWatch(() => context.daemon(), {topic: 'inbox', retryMs: options.retryMs}),
  };
}

/** Identity of an incident across fetches: its id (source, category, fingerprint, location). */
export function incidentKey(entry: Incident): string {
  return entry.id;
}
