import {z} from 'zod';
import {WorkbenchError} from '../core/errors.js';
import {formatIncidentsCompact, queryIncidents, storyLines, type Incident} from '../incidents/index.js';
import {ReadMarks} from '../incidents/seen.js';
import {toTerminalLine, toTerminalText} from '../text/terminal-safe.js';
import {incidentSchema, pageFields} from './output-schemas.js';
import {localProxyRecords} from './proxy-access.js';
import {defineTool, type ToolContext} from './registry-types.js';
import {spellArgs, spellField, type Face} from './spell-args.js';

export const INCIDENTS_LIMIT = 50;

export const getIncidentsInput = z.strictObject({
  id: z.string().min(1).max(128).optional().describe('One incident, whole (every field, the full message): an id from an earlier answer'),
  unread: z.boolean().default(false).describe('Only incidents not marked read, or that recurred since they were'),
  mark_read: z.boolean().default(false).describe('After answering, mark the incidents shown as read (a cursor: the next {"unread": true} shows only what is new)'),
  limit: z.number().int().min(1).max(10_000).default(INCIDENTS_LIMIT).describe('Maximum incidents returned; the answer says when more exist'),
  raw: z.boolean().default(false).describe('Return the JSON array of incidents instead of compact text'),
});

type Args = z.output<typeof getIncidentsInput>;

export interface IncidentsPage {
  incidents: Incident[];
  /** How many match (all, or all unread) before `limit`. */
  total: number;
  /** Unread incidents in the whole inbox, before this call marked any. */
  unread: number;
  /** How many this call marked read. */
  marked: number;
  /** Set when asked for one incident by id. */
  one: boolean;
}

export async function getIncidents(input: z.input<typeof getIncidentsInput>, context: ToolContext): Promise<IncidentsPage> {
  const args = getIncidentsInput.parse(input);
  const client = context.noDaemon ? undefined : await context.daemon();
  const all = client ? await client.call('incidents.query') : queryIncidents({processAlerts: [], proxies: localProxyRecords(context)});
  const marks = new ReadMarks();
  if (client) marks.mark(await client.call('incidents.marks'));
  const unread = all.filter((incident) => marks.isUnread(incident));
  if (args.id !== undefined) {
    const found = all.find((incident) => incident.id === args.id);
    if (!found) throw new WorkbenchError('not_found', `incident "${args.id}" not found: it may have left the alert ring; call get_incidents for the current ids`);
    const marked = args.mark_read && client ? (await client.call('incidents.mark_read', {incidents: [pick(found)]})).marked : 0;
    return {incidents: [found], total: 1, unread: unread.length, marked, one: true};
  }
  const matching = args.unread ? unread : all;
  const incidents = matching.slice(0, args.limit);
  if (args.mark_read && !client) throw new WorkbenchError('invalid_argument', 'mark_read needs the daemon, which keeps the read marks; legacy mode (--no-daemon) has none');
  const marked = args.mark_read && client && incidents.length ? (await client.call('incidents.mark_read', {incidents: incidents.map(pick)})).marked : 0;
  return {incidents, total: matching.length, unread: unread.length, marked, one: false};
}

const pick = ({id, last_seen}: Incident) => ({id, last_seen});

export function formatIncidentsPage(page: IncidentsPage, args: Args, face: Face = 'tool'): string {
  if (page.one) return formatOneIncident(page.incidents[0]!);
  const lines = [formatIncidentsCompact(page.incidents)];
  const notes: string[] = [];
  const unread = spellArgs(face, {unread: true});
  if (page.total > page.incidents.length)
    notes.push(
      `showing ${page.incidents.length} of ${page.total}: raise ${spellField(face, 'limit')}, or add ${spellArgs(face, {mark_read: true})} and page through with ${unread}`,
    );
  if (!args.unread && page.unread < page.total) notes.push(`${page.unread} unread`);
  if (page.marked) notes.push(`marked ${page.marked} read; ${unread} shows only what is new from here`);
  if (page.incidents.length) notes.push(`one whole: ${spellArgs(face, {id: '<id>'}, {command: 'get-incidents'})}`);
  if (notes.length) lines.push('', `[${notes.join('; ')}]`);
  return lines.join('\n');
}

/** Every field of one incident, the message whole (made safe for a terminal, line by line). */
function formatOneIncident(incident: Incident): string {
  const lines = [
    toTerminalLine(`[${incident.label}] ${incident.source} ${incident.category}`),
    `id: ${incident.id}`,
    `count: ${incident.count}`,
    `first seen: ${incident.first_seen}`,
    `last seen: ${incident.last_seen}`,
  ];
  if (incident.location) lines.push(toTerminalLine(`location: ${incident.location}`));
  if (incident.page) lines.push(toTerminalLine(`page: ${incident.page}`));
  lines.push('', toTerminalText(incident.message));
  if (incident.story) lines.push('', ...storyLines(incident.story, true));
  else if (incident.part_of) lines.push('', `part of: ${incident.part_of} (its story joins this with the page error or request around it)`);
  return lines.join('\n');
}

export const getIncidentsTool = defineTool({
  name: 'get_incidents',
  title: 'Error inbox (incidents)',
  description: [
    'The authoritative error inbox: every open incident across processes and proxies, labelled <severity>:<kind>, each with an id.',
    'Use it to work through problems: {"unread": true, "mark_read": true} answers only what is new since your last such call; {"id": "<id>"} shows one incident whole. Use get_errors instead for an exact, filtered snapshot (process_id, since).',
    'Changes nothing but the inbox’s read marks (mark_read). Example: {"unread": true, "mark_read": true, "limit": 20}',
  ].join('\n'),
  // mark_read changes the inbox's read marks, and each such call marks the next page: not read-only, not idempotent; nothing is lost.
  annotations: {readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false},
  input: getIncidentsInput,
  output: z.object({
    incidents: z.array(incidentSchema),
    ...pageFields,
    unread: z.number().int().describe('Unread incidents in the inbox before this call'),
    marked: z.number().int(),
  }),
  handler: getIncidents,
  compact: formatIncidentsPage,
  raw: (page) => (page.one ? page.incidents[0] : page.incidents),
  structured: (page) => ({incidents: page.incidents, total: page.total, shown: page.incidents.length, unread: page.unread, marked: page.marked}),
});
