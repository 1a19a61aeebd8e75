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
 * - `alerts`: the error inbox changed (an alert added or repeated, compile errors cleared, a
 *   process's alerts dropped) — `{processId, alerts}`, alerts being the ring's size now.
 *   Re-read `errors.query` / `incidents.query` on it; there is no need to poll.
 * - `output`: bytes a process printed (UTF-8, ANSI kept) — `{processId, data, end}`, `end` being
 *   the process's byte count once `data` is in its ring (compare with `proc.output`'s `end`).
 * - `proxies`: a dev proxy started or stopped — `{proxy, running}`.
 * - `traffic`: new entries of a proxy's traffic log, gathered for a few tens of milliseconds —
 *   `{proxyId, entries}`, oldest first; `proxy.log` with `afterSeq` fills any gap.
 */
export interface DaemonEvents {
  processes: {process: ProcessInfo};
  alerts: {processId: string; alerts: number};
  output: {processId: string; data: string; end: number};
  proxies: {proxy: ProxyInfo; running: boolean};
  traffic: {proxyId: string; entries: TrafficEntry[]};
}

export type Topic = keyof DaemonEvents;

export const topics = ['processes', 'alerts', 'output', 'proxies', 'traffic'] as const satisfies readonly Topic[];

export const topicSchema = z.enum(topics);

/** An event as it travels: the topic in `event`, then its payload. */
export type DaemonEvent = {[T in Topic]: {event: T} & DaemonEvents[T]}[Topic];
