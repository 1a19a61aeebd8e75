import {createHash} from 'node:crypto';
import {collectGroups} from './collect.js';
import type {ErrorGroup} from './dedupe.js';
import {toTerminalLine} from '../text/terminal-safe.js';
import {entryDetailLines, occurrences} from './format.js';
import {parseOptionalSince} from './query.js';
import {resolveScope} from './scope.js';
import type {IncidentKind} from './shape.js';
import {toRfc3339} from './timestamp.js';
import type {ErrorSources, Severity} from './types.js';

/**
 * get_incidents (spec 1): the authoritative inbox. The same entries as get_errors — same
 * pipeline, dedupe, noise filter and order (errors first, then most recent) — with no limit and
 * warnings always included, each labelled `<severity>:<kind>` and carrying a stable id.
 *
 * An Incident, fields in this order:
 * - `id`: 8 hex digits of sha256(source, category, message, location); the same trouble keeps its id.
 * - `label`: `<severity>:<kind>`, e.g. `warning:http_4xx`, `error:build_error`.
 * - `kind`: build_error | process_error | http_5xx | http_4xx | transport | js_error |
 *   console_error | console_warn | proxy_error | proxy_warning.
 * - `severity`, `source`, `category`, `message`, `location`, `page`, `count`: as in get_errors.
 * - `first_seen`, `last_seen`: RFC 3339 times of the first and the latest occurrence.
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
}

/** Optional narrowing, as in get_errors; the spec's get_incidents takes an empty object. */
export interface IncidentQuery {
  process_id?: string;
  proxy_id?: string;
  since?: string;
}

export function queryIncidents(sources: ErrorSources, now = Date.now(), query: IncidentQuery = {}): Incident[] {
  const cutoff = parseOptionalSince(query.since, now);
  const scope = resolveScope(sources, query.process_id, query.proxy_id);
  return collectGroups(sources, {scope, cutoff, includeWarnings: true}).map(toIncident);
}

export function incidentId(source: string, category: string, message: string, location: string): string {
  return createHash('sha256').update(`${source}\u0000${category}\u0000${message}\u0000${location}`).digest('hex').slice(0, 8);
}

function toIncident(group: ErrorGroup): Incident {
  const {source, category, message, location} = group.shape;
  return {
    id: incidentId(source, category, message, location),
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
}

/**
 * Compact get_incidents output: `=== Incidents (<n>) ===`, then per entry a blank line,
 * `[<label>] <source> <category> (<count>x, <age> ago)` and the same message, `→ location` and
 * `page:` lines as get_errors.
 */
export function formatIncidentsCompact(incidents: Incident[], now = Date.now()): string {
  const lines = [`=== Incidents (${incidents.length}) ===`];
  for (const incident of incidents) {
    lines.push('', toTerminalLine(`[${incident.label}] ${incident.source} ${incident.category} ${occurrences(incident.count, incident.last_seen, now)}`));
    entryDetailLines(lines, incident);
  }
  return lines.join('\n');
}
