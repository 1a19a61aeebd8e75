import {collectGroups} from './collect.js';
import {groupNearDuplicates, type NearGroup} from './group.js';
import {shapeIncidentId} from './incident-id.js';
import {toTerminalLine} from '../text/terminal-safe.js';
import {compactMessage, entryDetailLines, occurrences} from './format.js';
import {parseOptionalSince} from './query.js';
import {resolveScope} from './scope.js';
import type {IncidentKind} from './shape.js';
import {joinStories, type IncidentStory} from './story.js';
import {storyLines} from './story-format.js';
import {toRfc3339} from './timestamp.js';
import type {ErrorSources, Severity} from './types.js';

export {incidentId} from './incident-id.js';

/**
 * get_incidents (spec 1): the authoritative inbox. The same entries as get_errors — same
 * pipeline, dedupe, noise filter and order (errors first, then most recent) — with no limit and
 * warnings always included, each labelled `<severity>:<kind>` and carrying a stable id.
 *
 * An Incident, fields in this order:
 * - `id`: 8 hex digits of sha256(source, category, fingerprint of the message, location); the same
 *   trouble keeps its id, whichever of its variants came last.
 * - `label`: `<severity>:<kind>`, e.g. `warning:http_4xx`, `error:build_error`.
 * - `kind`: build_error | process_error | http_5xx | http_4xx | transport | js_error |
 *   console_error | console_warn | proxy_error | proxy_warning.
 * - `severity`, `source`, `category`, `message`, `location`, `page`, `count`: as in get_errors.
 *   `message` is the newest variant's.
 * - `first_seen`, `last_seen`: RFC 3339 times of the first and the latest occurrence.
 * - `variant_count`, `variants` (only when near-duplicates were grouped, fingerprint.ts): how many
 *   distinct messages, and the newest few of them.
 * - `run` (process incidents only, only when older): the run of the process it was last seen in,
 *   when the process has been restarted since.
 * - `frames` (process incidents with a stack): the frames the scanner saw, as printed.
 * - `story` (story.ts): when a page error, the failing request behind it and the server's
 *   exception happened together, the incident that leads (the page error; else the request) tells
 *   all three parts — browser stack, request and response, server stack.
 * - `part_of`: on the request's and the server's incidents of such a story, the id of the
 *   incident that tells it.
 */
export interface Incident {
  id: string;
  label: string;
  kind: IncidentKind;
  severity: Severity;
  source: string;
  category: string;
  message: string;
  location: string;
  page: string;
  count: number;
  first_seen: string;
  last_seen: string;
  variant_count?: number;
  variants?: string[];
  run?: number;
  frames?: string[];
  story?: IncidentStory;
  part_of?: string;
}

/** Variants an incident lists; `variant_count` says how many there are in all. */
export const VARIANTS_SHOWN = 3;

/** Optional narrowing, as in get_errors; the spec's get_incidents takes an empty object. */
export interface IncidentQuery {
  process_id?: string;
  proxy_id?: string;
  since?: string;
}

export function queryIncidents(sources: ErrorSources, now = Date.now(), query: IncidentQuery = {}): Incident[] {
  const cutoff = parseOptionalSince(query.since, now);
  const scope = resolveScope(sources, query.process_id, query.proxy_id);
  const incidents = groupNearDuplicates(collectGroups(sources, {scope, cutoff, includeWarnings: true})).map(toIncident);
  const {stories, partOf} = joinStories(sources, {scope, cutoff});
  if (stories.size === 0) return incidents;
  for (const incident of incidents) {
    const story = stories.get(incident.id);
    if (story) incident.story = story;
    else {
      const lead = partOf.get(incident.id);
      if (lead !== undefined) incident.part_of = lead;
    }
  }
  return incidents;
}

function toIncident({group, variants}: NearGroup): Incident {
  const {source, category, message, location} = group.shape;
  const incident: Incident = {
    id: shapeIncidentId(group.shape),
    label: `${group.severity}:${group.kind}`,
    kind: group.kind,
    severity: group.severity,
    source,
    category,
    message,
    location,
    page: group.page,
    count: group.count,
    first_seen: toRfc3339(group.firstSeen),
    last_seen: toRfc3339(group.lastSeen),
  };
  if (variants.length > 1) {
    incident.variant_count = variants.length;
    incident.variants = variants.slice(0, VARIANTS_SHOWN);
  }
  if (group.olderRun !== undefined) incident.run = group.olderRun;
  if (group.frames?.length) incident.frames = group.frames;
  return incident;
}

/** `variants (5): a | b | c +2 more`, or nothing when the incident has one message. */
export function variantsLine(incident: Pick<Incident, 'variant_count' | 'variants'>): string | undefined {
  if (!incident.variant_count || !incident.variants) return undefined;
  const more = incident.variant_count - incident.variants.length;
  return `variants (${incident.variant_count}): ${incident.variants.join(' | ')}${more > 0 ? ` +${more} more` : ''}`;
}

/**
 * Compact get_incidents output: `=== Incidents (<n>) ===`, then per entry a blank line,
 * `[<label>] <source> <category> (<count>x, <age> ago)` (plus ` run <n>` when from an earlier run
 * of its process), then ` id <id>` (what opens it whole), and the same message, `→ location` and `page:` lines as get_errors, then
 * `variants (<n>): a | b | c +<m> more` when near-duplicates were grouped, then the story's
 * parts (story-format.ts) or `part of <id>`.
 */
export function formatIncidentsCompact(incidents: Incident[], now = Date.now()): string {
  const lines = [`=== Incidents (${incidents.length}) ===`];
  for (const incident of incidents) {
    const run = incident.run === undefined ? '' : ` run ${incident.run}`;
    lines.push('', toTerminalLine(`[${incident.label}] ${incident.source} ${incident.category} ${occurrences(incident.count, incident.last_seen, now)}${run} id ${incident.id}`));
    entryDetailLines(lines, incident);
    const variants = variantsLine(incident);
    if (variants) lines.push(toTerminalLine(compactMessage(variants)));
    if (incident.story) lines.push(...storyLines(incident.story));
    else if (incident.part_of) lines.push(`part of ${incident.part_of}`);
  }
  return lines.join('\n');
}
