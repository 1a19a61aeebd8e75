import {z} from 'zod';
import {formatIncidentsCompact, queryIncidents, type Incident} from '../incidents/index.js';
import {defineTool, type ToolContext} from './registry-types.js';

export const getIncidentsInput = z.object({
  raw: z.boolean().optional().describe('Return the JSON array of incidents instead of compact text'),
});

export async function getIncidents(_args: z.infer<typeof getIncidentsInput>, context: ToolContext): Promise<Incident[]> {
  if (context.noDaemon) return queryIncidents({processAlerts: [], proxies: []});
  const client = await context.daemon();
  return client.call('incidents.query');
}

export const getIncidentsTool = defineTool({
  name: 'get_incidents',
  description: 'The authoritative error inbox: every open incident across processes and proxies, labelled <severity>:<kind>.',
  input: getIncidentsInput,
  handler: getIncidents,
  compact: (incidents: Incident[]) => formatIncidentsCompact(incidents),
});
