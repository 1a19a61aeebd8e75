import {figures as figuresBetween} from '../metrics/figures.js';
import type {MetricsSnapshot, MetricsSource} from '../metrics/types.js';
import type {DashboardFrame, ServerFigures} from './frame.js';

const ms = (seconds: number | null) => (seconds === null ? 0 : seconds * 1000);

/**
 * One refresh of the dashboard from two snapshots, through the figures `workbench metrics` prints
 * (source/metrics/figures.ts): the first refresh, with nothing before it, compares a snapshot with
 * itself (no rates yet). A source that is not up keeps its place on the charts, named stopped or garbage.
 */
export function frameFromSnapshots(before: MetricsSnapshot | undefined, after: MetricsSnapshot): DashboardFrame {
  const figures = figuresBetween(before ?? after, after);
  const kinds = new Map<string, MetricsSource>(after.sources.map((entry) => [entry.source.name, entry.source]));
  const servers: ServerFigures[] = figures.http.map((http) => ({
    source: kinds.get(http.name) ?? {name: http.name, kind: 'proxy', url: kinds.get('daemon')?.url ?? ''},
    state: 'up',
    requestsPerSecond: before ? http.requestsPerSecond : undefined,
    // The counter as read: the same number `workbench metrics --json` prints, and /metrics holds.
    requestsTotal: http.requestsTotal,
    latency: before && http.p50 !== null ? {p50: ms(http.p50), p95: ms(http.p95), p99: ms(http.p99)} : undefined,
    status: before ? http.statuses : undefined,
  }));
  for (const entry of after.sources) {
    if (entry.state !== 'up' && entry.source.kind !== 'daemon') servers.push({source: entry.source, state: entry.state, error: entry.error});
  }
  const frame: DashboardFrame = {
    at: after.at,
    servers,
    processes: figures.processes.map((process) => ({name: process.name, cpuPercent: process.cpuPercent ?? 0, memoryMb: (process.residentBytes ?? 0) / 1024 / 1024})),
  };
  if (before && after.sources.some((entry) => entry.source.kind === 'daemon' && entry.state === 'up')) {
    frame.alertsPerMinute = Object.fromEntries(figures.errors.map((entry) => [entry.source, {errors: entry.errorsPerMinute, warnings: entry.warningsPerMinute}]));
  }
  if (figures.alertRing) frame.alertRing = {used: figures.alertRing.entries, capacity: figures.alertRing.capacity};
  if (figures.poller) frame.poller = {fetches: figures.poller.fetchesPerMinute, notModified: figures.poller.notModifiedPerMinute, failures: figures.poller.failuresPerMinute};
  if (figures.outboxBacklog !== null) frame.outboxBacklog = figures.outboxBacklog;
  return frame;
}
