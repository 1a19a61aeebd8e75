import {shapeIncidentId} from './incident-id.js';
import {browserJsShape, httpDetail, httpShape, processAlertShape} from './normalize.js';
import {includesProcesses, includesProxy, type Scope} from './scope.js';
import {toRfc3339} from './timestamp.js';
import type {BrowserJsError, ErrorSources, HttpLogEntry, ProcessAlert} from './types.js';

/**
 * One incident, the whole story (issue 8 item 9): a page's error, the failing request behind it
 * and the server's exception while serving it, joined into the story of one incident.
 *
 * - request ↔ server: exactly when the server's alert text carries the request's trace id (the
 *   proxy sends a W3C `traceparent`; an app that logs it is joined exactly); otherwise the error
 *   alert (not a build error) whose last occurrence is nearest the request, within JOIN_WINDOW_MS
 *   — and never one that names another request's trace id.
 * - page ↔ request: a failing request (5xx, or no response at all; never a 4xx, never noise) of
 *   the same proxy from the same page session (or, when either lacks one, the same page URL),
 *   nearest the page error within JOIN_WINDOW_MS. A request with neither is joined to no page.
 *
 * A page error with such a request leads its story; a failing request that no page error claims
 * leads its own (request and server) when a server exception joins it. Each lead incident tells
 * its newest story; the incidents of the other parts point to it (`part_of`).
 */
export const JOIN_WINDOW_MS = 2_000;
const FRAMES_SHOWN = 10;

export interface StoryBrowser {
  incident: string;
  category: string;
  message: string;
  location: string;
  page: string;
  /** The page's stack frames as the proxy recorded them (source-mapped where the bundle has a map). */
  stack: string[];
  at: string;
}

export interface StoryRequest {
  incident: string;
  method: string;
  url: string;
  status: number;
  /** What the response body (or the transport error) says went wrong. */
  message: string;
  trace_id?: string;
  at: string;
}

export interface StoryServer {
  incident: string;
  source: string;
  category: string;
  message: string;
  location: string;
  frames: string[];
  at: string;
}

export interface IncidentStory {
  /** `trace`: the server's output named the request's trace id; `time`: joined by page and time. */
  joined_by: 'trace' | 'time';
  browser?: StoryBrowser;
  request: StoryRequest;
  server?: StoryServer;
}

export interface StoryJoin {
  /** By the id of the incident that tells it. */
  stories: Map<string, IncidentStory>;
  /** Incident id of a part → id of the incident telling its story. */
  partOf: Map<string, string>;
}

export interface JoinOptions {
  scope: Scope;
  cutoff: number;
}

/** The records of one story, before it is written out. */
interface Joined {
  error?: BrowserJsError;
  request: HttpLogEntry;
  server?: ServerMatch;
  /** When it happened: the page error's time, or the request's. */
  at: number;
}

export function joinStories(sources: ErrorSources, {scope, cutoff}: JoinOptions): StoryJoin {
  const servers = serverAlerts(sources, scope, cutoff);
  // Stories are chosen by record (keyed by the exact shape) and written out only when kept.
  const pageLed = new Map<string, Joined>();
  const failingPerProxy: HttpLogEntry[][] = [];
  for (const proxy of sources.proxies) {
    if (!includesProxy(scope, proxy.id)) continue;
    const failing = failingRequests(proxy.http, cutoff);
    if (failing.length === 0) continue;
    failingPerProxy.push(failing);
    // Newest first: each page error keeps its newest story, and older occurrences are skipped cheaply.
    for (let index = proxy.js.length - 1; index >= 0; index -= 1) {
      const error = proxy.js[index];
      if (error.timestamp < cutoff) continue;
      const key = browserJsShape(error).key;
      const known = pageLed.get(key);
      if (known && known.at >= error.timestamp) continue;
      const request = requestBehind(error, failing);
      if (request) pageLed.set(key, {error, request, server: servers.serverFor(request), at: error.timestamp});
    }
  }

  // Failing requests no page error explains tell their own story (request and server) when a server exception joins them.
  const explained = new Set<string>();
  for (const joined of pageLed.values()) explained.add(httpShape(joined.request)!.key);
  const requestLed = new Map<string, Joined>();
  for (const failing of servers.none ? [] : failingPerProxy) {
    for (let index = failing.length - 1; index >= 0; index -= 1) {
      const request = failing[index];
      const key = httpShape(request)!.key;
      if (explained.has(key)) continue;
      const known = requestLed.get(key);
      if (known && known.at >= request.timestamp) continue;
      const server = servers.serverFor(request);
      if (server) requestLed.set(key, {request, server, at: request.timestamp});
    }
  }

  // Near-duplicates share an incident: per incident, the newest story; per part, the newest story it is in.
  const kept = new Map<string, Joined>();
  const parts = new Map<string, {lead: string; at: number}>();
  const claim = (part: string, lead: string, at: number) => {
    const known = parts.get(part);
    if (!known || known.at < at) parts.set(part, {lead, at});
  };
  const keep = (lead: string, joined: Joined) => {
    const known = kept.get(lead);
    if (!known || known.at < joined.at) kept.set(lead, joined);
  };
  for (const joined of pageLed.values()) {
    const lead = shapeIncidentId(browserJsShape(joined.error!));
    keep(lead, joined);
    claim(shapeIncidentId(httpShape(joined.request)!), lead, joined.at);
    if (joined.server) claim(shapeIncidentId(processAlertShape(joined.server.alert)), lead, joined.at);
  }
  for (const joined of requestLed.values()) {
    const lead = shapeIncidentId(httpShape(joined.request)!);
    if (parts.has(lead)) continue;
    keep(lead, joined);
  }
  for (const [lead, joined] of kept) if (!joined.error && joined.server) claim(shapeIncidentId(processAlertShape(joined.server.alert)), lead, joined.at);

  const stories = new Map<string, IncidentStory>();
  for (const [lead, joined] of kept) stories.set(lead, writeStory(lead, joined));
  const partOf = new Map<string, string>();
  for (const [part, {lead}] of parts) if (!stories.has(part)) partOf.set(part, lead);
  return {stories, partOf};
}

function writeStory(lead: string, {error, request, server}: Joined): IncidentStory {
  const joinedBy = server?.byTrace ? 'trace' : 'time';
  const story: IncidentStory = error
    ? {joined_by: joinedBy, browser: browserPart(error, lead), request: requestPart(request)}
    : {joined_by: joinedBy, request: requestPart(request)};
  if (server) story.server = serverPart(server.alert);
  return story;
}

/** 5xx and transport failures (never noise: the noise filter drops only redirects and 404s), oldest first. */
function failingRequests(http: HttpLogEntry[], cutoff: number): HttpLogEntry[] {
  const failing: HttpLogEntry[] = [];
  let sorted = true;
  for (const entry of http) {
    const status = entry.status;
    if (status !== 0 && (status < 500 || status > 599)) continue;
    if (entry.timestamp < cutoff) continue;
    if (failing.length && failing[failing.length - 1].timestamp > entry.timestamp) sorted = false;
    failing.push(entry);
  }
  return sorted ? failing : failing.sort((a, b) => a.timestamp - b.timestamp);
}

/** The failing request of the same page nearest the error, within the window. */
function requestBehind(error: BrowserJsError, failing: HttpLogEntry[]): HttpLogEntry | undefined {
  let best: HttpLogEntry | undefined;
  for (let index = firstAtOrAfter(failing, error.timestamp - JOIN_WINDOW_MS, (entry) => entry.timestamp); index < failing.length; index += 1) {
    const request = failing[index];
    if (request.timestamp > error.timestamp + JOIN_WINDOW_MS) break;
    if (!samePage(error, request)) continue;
    if (!best || Math.abs(request.timestamp - error.timestamp) < Math.abs(best.timestamp - error.timestamp)) best = request;
  }
  return best;
}

function samePage(error: BrowserJsError, request: HttpLogEntry): boolean {
  if (error.session && request.session) return error.session === request.session;
  return !!request.page && !!error.page && withoutHash(request.page) === withoutHash(error.page);
}

function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

interface ServerMatch {
  alert: ProcessAlert;
  byTrace: boolean;
}

/** The server-side exceptions in scope: by the trace ids they print, and by time (buckets one window wide). */
function serverAlerts(sources: ErrorSources, scope: Scope, cutoff: number) {
  const byBucket = new Map<number, ProcessAlert[]>();
  const byTrace = new Map<string, ProcessAlert>();
  if (includesProcesses(scope)) {
    for (const alert of sources.processAlerts) {
      if (alert.lastSeen < cutoff || alert.compile || alert.severity !== 'error') continue;
      if (scope.processId !== undefined && alert.processId !== scope.processId) continue;
      const traces = traceIdsIn(alert);
      for (const trace of traces) {
        const known = byTrace.get(trace);
        if (!known || known.lastSeen < alert.lastSeen) byTrace.set(trace, alert);
      }
      // An alert naming a trace id is that request's; it is never joined to another by time.
      if (traces.length) continue;
      const bucket = Math.floor(alert.lastSeen / JOIN_WINDOW_MS);
      const list = byBucket.get(bucket);
      if (list) list.push(alert);
      else byBucket.set(bucket, [alert]);
    }
  }
  return {
    none: byTrace.size === 0 && byBucket.size === 0,
    serverFor(request: HttpLogEntry): ServerMatch | undefined {
      // The proxy writes trace ids in lower case, as W3C Trace Context asks; alerts' are lowered when read.
      const exact = request.traceId ? byTrace.get(request.traceId) : undefined;
      if (exact) return {alert: exact, byTrace: true};
      if (byBucket.size === 0) return undefined;
      let best: ProcessAlert | undefined;
      const bucket = Math.floor(request.timestamp / JOIN_WINDOW_MS);
      for (let near = bucket - 1; near <= bucket + 1; near += 1) {
        for (const alert of byBucket.get(near) ?? []) {
          const distance = Math.abs(alert.lastSeen - request.timestamp);
          if (distance <= JOIN_WINDOW_MS && (!best || distance < Math.abs(best.lastSeen - request.timestamp))) best = alert;
        }
      }
      return best && {alert: best, byTrace: false};
    },
  };
}

// W3C trace ids: 32 hex digits, alone or inside a printed `traceparent` (00-<trace id>-<span id>-01).
const TRACE_ID = /(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])/gi;
const ZERO_TRACE = '0'.repeat(32);
const traceMemo = new WeakMap<ProcessAlert, {raw: string; ids: string[]}>();

function traceIdsIn(alert: ProcessAlert): string[] {
  const memo = traceMemo.get(alert);
  if (memo && memo.raw === alert.raw) return memo.ids;
  const ids = [...new Set((alert.raw ?? '').match(TRACE_ID) ?? [])].map((id) => id.toLowerCase()).filter((id) => id !== ZERO_TRACE);
  traceMemo.set(alert, {raw: alert.raw, ids});
  return ids;
}

/** Index of the first item whose key is at least `value` in a list sorted by that key. */
function firstAtOrAfter<T>(list: T[], value: number, key: (item: T) => number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (key(list[middle]) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function browserPart(error: BrowserJsError, incident: string): StoryBrowser {
  const shape = browserJsShape(error);
  const stack = (error.stack ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => /:\d+:\d+\)?$/.test(line))
    .slice(0, FRAMES_SHOWN);
  return {incident, category: shape.category, message: shape.message, location: shape.location, page: error.page, stack, at: toRfc3339(error.timestamp)};
}

function requestPart(request: HttpLogEntry): StoryRequest {
  const part: StoryRequest = {
    incident: shapeIncidentId(httpShape(request)!),
    method: (request.method || 'GET').toUpperCase(),
    url: request.url,
    status: request.status,
    message: httpDetail(request),
    at: toRfc3339(request.timestamp),
  };
  if (request.traceId) part.trace_id = request.traceId;
  return part;
}

function serverPart(alert: ProcessAlert): StoryServer {
  const shape = processAlertShape(alert);
  return {
    incident: shapeIncidentId(shape),
    source: shape.source,
    category: shape.category,
    message: shape.message,
    location: shape.location,
    frames: (alert.frames ?? []).slice(0, FRAMES_SHOWN),
    at: toRfc3339(alert.lastSeen),
  };
}
