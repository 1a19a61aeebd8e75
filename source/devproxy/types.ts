/**
 * The dev proxy's contract (issue 8), shared by its parts: the forwarding engine (proxy/), the page
 * channel (channel/), the page script (page/), the daemon that owns proxies and the faces (CLI,
 * MCP, TUI) that show them. Records extend the inbox's own shapes (incidents/types.ts), so a
 * proxy's log feeds get_errors and get_incidents without copying.
 */
import type {BrowserJsError, CustomLogEntry, HttpLogEntry, ProxyDiagnostic, ProxyRecords} from '../incidents/types.js';

/** Paths the proxy answers itself and never forwards. */
export const RESERVED_PREFIX = '/__workbench/';
/** The page channel: one WebSocket per page (channel-protocol.ts). */
export const CHANNEL_PATH = '/__workbench/ws';

export interface ProxyOptions {
  /** 1–64 characters of [A-Za-z0-9._-]. */
  id: string;
  /** Absolute http(s) URL of the dev server, e.g. http://127.0.0.1:3000. */
  target: string;
  /** Port to listen on; 0 or absent: a free one. A taken port is an error naming it, unless nextFree. */
  port?: number;
  /** Take the next free port above `port` when it is taken. */
  nextFree?: boolean;
  /** Listen address; default 127.0.0.1. */
  host?: string;
  /** Traffic-log ring size (entries of every type together); default 1000, at most 100,000. */
  logSize?: number;
  /** How long to wait for the target's answer (and between parts of a body that is not an event stream); default 60 s. */
  targetTimeoutMs?: number;
}

/** A running proxy as every face shows it. */
export interface ProxyInfo {
  id: string;
  target: string;
  /** http://127.0.0.1:<port> — what to open in the browser. */
  url: string;
  port: number;
  startedAt: number; // epoch ms
  logSize: number;
  /** Counters since start (not bounded by the ring). */
  requests: number;
  errors: number;
  /** Pages connected over the channel now. */
  pages: number;
}

export type TrafficType = 'http' | 'error' | 'custom' | 'diagnostic' | 'page';

interface Sequenced {
  /** Monotonic per proxy, from 1: a client asks for entries after the last it saw. */
  seq: number;
}

/** One forwarded request; an HttpLogEntry (the inbox reads it as is) plus what the log shows. */
export interface HttpTraffic extends HttpLogEntry, Sequenced {
  type: 'http';
  /** W3C trace id (32 hex) of the `traceparent` the proxy sent upstream (or the one the page sent). */
  traceId: string;
  durationMs: number;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  requestBytes: number;
  responseBytes: number;
  /** The first part of each body (UTF-8 text; binary bodies are described, not copied). */
  requestBody?: string;
  /** Whether the page script was injected into this response. */
  injected?: boolean;
  /** Page session that issued it, when known (channel session id). */
  session?: string;
}

export interface ErrorTraffic extends BrowserJsError, Sequenced {
  type: 'error';
  session?: string;
  /** The stack as the browser gave it, before source maps (stack holds the mapped one). */
  rawStack?: string;
}

export interface CustomTraffic extends CustomLogEntry, Sequenced {
  type: 'custom';
  session?: string;
  data?: unknown;
}

export interface DiagnosticTraffic extends ProxyDiagnostic, Sequenced {
  type: 'diagnostic';
  /** The request it concerns, when there is one. */
  method?: string;
  url?: string;
  /**
   * The request's own HTTP entry (status 0, its `error` this failure) already says it: the log shows
   * both, the inbox one entry (spec 1: a transport error is one `proxy:http` error).
   */
  inHttpEntry?: true;
}

export interface PageTraffic extends Sequenced {
  type: 'page';
  session: string;
  url: string;
  title: string;
  event: 'load' | 'navigate' | 'close';
  timestamp: number;
}

export type TrafficEntry = HttpTraffic | ErrorTraffic | CustomTraffic | DiagnosticTraffic | PageTraffic;

export interface TrafficQuery {
  types?: TrafficType[];
  /** HTTP entries with one of these statuses (other types pass when their type is asked for). */
  statusCodes?: number[];
  /** Epoch ms: entries at or after it. */
  since?: number;
  /** Entries with seq greater than this. */
  afterSeq?: number;
  /** Substring of the URL (HTTP entries). */
  path?: string;
  /** Newest entries, at most this many (default 100), oldest first in the answer. */
  limit?: number;
}

/** One browser tab connected over the channel (currentpage). */
export interface PageSession {
  /** Per tab, kept across reloads (sessionStorage). */
  session: string;
  url: string;
  title: string;
  loadedAt: number;
  lastSeen: number;
  lastInteraction?: number;
  /** Since the last load of this session's page. */
  errors: number;
  failedRequests: number;
  connected: boolean;
  userAgent?: string;
}

export type ExecResult = {session: string; url: string; ok: true; value: unknown} | {session: string; url: string; ok: false; error: string};

/** What the daemon (or a face in legacy mode) holds per proxy. */
export interface DevProxy {
  readonly info: ProxyInfo;
  /** The inbox's view: every record in the ring, by kind. */
  records(): ProxyRecords;
  log(query?: TrafficQuery): TrafficEntry[];
  pages(): PageSession[];
  /** Runs code in every connected page (or one session); rejects `no_page` when none is connected. */
  exec(code: string, options?: {session?: string; timeoutMs?: number}): Promise<ExecResult[]>;
  /**
   * Called for each new entry (the daemon turns it into a `traffic` event), with the entry it
   * pushed out of the full log, if any (the inbox tells its readers that one is gone).
   */
  onEntry(listener: (entry: TrafficEntry, dropped: TrafficEntry | undefined) => void): () => void;
  stop(): Promise<void>;
}
