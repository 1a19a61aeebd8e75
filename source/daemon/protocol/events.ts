import {z} from 'zod';
import type {ProxyInfo, TrafficEntry} from '../../devproxy/types.js';
import type {ProcessInfo} from '../../processes/types.js';

/**
 * What the daemon pushes to a connection that subscribed (`events.subscribe`), one JSON line each:
 * `{"event": <topic>, ...payload}`. Events follow the responses and other events of the same
 * connection in the order the daemon saw them, so a process's last `output` precedes the
 * `processes` event that says it exited.
 *
 * - `processes`: a process started, changed state or exited — `{process}` is its new state.
 * - `inbox`: the error inbox changed, whatever the source — an alert added, repeated or cleared, an
 *   error-bearing proxy entry (4xx/5xx, transport error, diagnostic, browser error, custom log)
 *   logged or pushed out of a full log, a proxy holding errors stopped — `{processes, proxies}` (short process ids, of any project),
 *   the ids whose errors changed since the last `inbox` event. Bursts are gathered (one event at
 *   once, then at most one per tenth of a second). Re-read `errors.query` / `incidents.query` on
 *   it; there is no need to poll. A 2xx/3xx response is no news.
 * - `alerts`: the process alert ring changed (an alert added or repeated, compile errors cleared,
 *   a process's alerts dropped) — `{processId, project, alerts}`, alerts being the ring's size now. Only
 *   the process part of the inbox: follow `inbox` for all of it.
 * - `output`: bytes a process printed (UTF-8, ANSI kept) — `{processId, project, data, end}`, `end` being
 *   the process's byte count once `data` is in its ring (compare with `proc.output`'s `end`).
 * - `proxies`: a dev proxy started or stopped — `{proxy, running}`.
 * - `traffic`: new entries of a proxy's traffic log, gathered for a few tens of milliseconds —
 *   `{proxyId, entries}`, oldest first; `proxy.log` with `afterSeq` fills any gap.
 */
export interface DaemonEvents {
  processes: {process: ProcessInfo};
  inbox: {processes: string[]; proxies: string[]};
  alerts: {processId: string; project: string; alerts: number};
  output: {processId: string; project: string; data: string; end: number};
  proxies: {proxy: ProxyInfo; running: boolean};
  traffic: {proxyId: string; entries: TrafficEntry[]};
}

export type Topic = keyof DaemonEvents;

export const topics = ['processes', 'inbox', 'alerts', 'output', 'proxies', 'traffic'] as const satisfies readonly Topic[];

export const topicSchema = z.enum(topics);

/** An event as it travels: the topic in `event`, then its payload. */
export type DaemonEvent = {[T in Topic]: {event: T} & DaemonEvents[T]}[Topic];
