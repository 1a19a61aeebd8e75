import {STATUS_CLASSES, type DashboardFrame, type ServerFigures} from './frame.js';

/** The time windows the charts span: keys 1/2/3, or w to cycle. */
export const WINDOWS = [
  {key: '1', label: '1m', seconds: 60},
  {key: '2', label: '15m', seconds: 15 * 60},
  {key: '3', label: '1h', seconds: 60 * 60},
] as const;
export type TimeWindow = (typeof WINDOWS)[number];

/** Points on a line chart's x axis, whatever the window: a 1 h window averages a minute per point. */
export const POINTS = 60;

export interface LineSeries {
  title: string;
  x: string[];
  y: number[];
}
export interface LineChart {
  label: string;
  series: LineSeries[];
}

const round = (value: number) => (value >= 100 ? Math.round(value).toString() : value.toFixed(1));

/** The frames within the window ending at `now`, averaged into POINTS buckets per source; a bucket with no frame is a gap at 0. */
function buckets<T>(frames: DashboardFrame[], window: TimeWindow, now: number, pick: (frame: DashboardFrame) => T | undefined, value: (item: T) => number): number[] {
  const width = (window.seconds * 1000) / POINTS;
  const totals = new Array<number>(POINTS).fill(0);
  const counts = new Array<number>(POINTS).fill(0);
  for (const frame of frames) {
    const index = POINTS - 1 - Math.floor((now - frame.at) / width);
    if (index < 0 || index >= POINTS) continue;
    const item = pick(frame);
    if (item === undefined) continue;
    totals[index]! += value(item);
    counts[index]! += 1;
  }
  return totals.map((total, index) => (counts[index] ? total / counts[index]! : 0));
}

function xLabels(window: TimeWindow): string[] {
  const step = window.seconds / POINTS;
  return Array.from({length: POINTS}, (_, index) => {
    const ago = (POINTS - 1 - index) * step;
    return ago === 0 ? 'now' : ago >= 60 ? `-${Math.round(ago / 60)}m` : `-${Math.round(ago)}s`;
  });
}

/** Every server seen in the window, named as the last frame names it, with " stopped"/" garbage" when it is not up now. */
function serversIn(frames: DashboardFrame[]): Map<string, ServerFigures> {
  const latest = new Map<string, ServerFigures>();
  for (const frame of frames) for (const server of frame.servers) latest.set(server.source.name, server);
  return latest;
}

export function serverTitle(server: ServerFigures): string {
  return server.state === 'up' ? server.source.name : `${server.source.name} ${server.state}`;
}

/** A line per server of the figure `value` picks; the chart's label carries the current values, readable at any size. */
function serverLines(frames: DashboardFrame[], window: TimeWindow, now: number, name: string, value: (server: ServerFigures) => number | undefined, unit: string): LineChart {
  const x = xLabels(window);
  const series: LineSeries[] = [];
  const current: string[] = [];
  for (const [key, latest] of serversIn(frames)) {
    const y = buckets(
      frames,
      window,
      now,
      (frame) => frame.servers.find((server) => server.source.name === key),
      (server) => value(server) ?? 0,
    );
    series.push({title: serverTitle(latest), x, y});
    const shown = latest.state === 'up' ? value(latest) : undefined;
    current.push(`${serverTitle(latest)}${shown === undefined ? '' : ` ${round(shown)}${unit}`}`);
  }
  return {label: `${name} (${window.label})${current.length ? ': ' + current.join('  |  ') : ''}`, series};
}

export function requestsChart(frames: DashboardFrame[], window: TimeWindow, now: number): LineChart {
  const chart = serverLines(frames, window, now, 'requests/s', (server) => server.requestsPerSecond, '/s');
  // The counter itself, so a reader can check the screen against /metrics or `workbench metrics`.
  const totals = [...serversIn(frames).values()].filter((server) => server.requestsTotal !== undefined && server.state === 'up');
  if (totals.length) chart.label += `  |  total ${totals.map((server) => `${server.source.name}=${server.requestsTotal}`).join(' ')}`;
  return chart;
}

/** p50/p95/p99 per server: three lines each, the label shows the current p95. */
export function latencyChart(frames: DashboardFrame[], window: TimeWindow, now: number): LineChart {
  const x = xLabels(window);
  const series: LineSeries[] = [];
  const current: string[] = [];
  for (const [key, latest] of serversIn(frames)) {
    for (const quantile of ['p50', 'p95', 'p99'] as const) {
      const y = buckets(
        frames,
        window,
        now,
        (frame) => frame.servers.find((server) => server.source.name === key)?.latency,
        (latency) => latency[quantile],
      );
      series.push({title: `${serverTitle(latest)} ${quantile}`, x, y});
    }
    current.push(
      latest.state === 'up' && latest.latency
        ? `${key} p50 ${round(latest.latency.p50)} p95 ${round(latest.latency.p95)} p99 ${round(latest.latency.p99)} ms`
        : serverTitle(latest),
    );
  }
  return {label: `latency ms (${window.label})${current.length ? ': ' + current.join('  |  ') : ''}`, series};
}

/** Responses by class per server, summed over the window. */
export function statusMix(frames: DashboardFrame[], window: TimeWindow, now: number): {barCategory: string[]; stackedCategory: string[]; data: number[][]} {
  const inWindow = frames.filter((frame) => now - frame.at < window.seconds * 1000);
  const servers = [...serversIn(frames).values()];
  return {
    barCategory: servers.map(serverTitle),
    stackedCategory: [...STATUS_CLASSES],
    data: servers.map((latest) =>
      STATUS_CLASSES.map((statusClass) =>
        inWindow.reduce((total, frame) => total + (frame.servers.find((server) => server.source.name === latest.source.name)?.status?.[statusClass] ?? 0), 0),
      ),
    ),
  };
}

/** Errors and warnings per minute by source, averaged over the window (two bars a source). */
export function alertBars(frames: DashboardFrame[], window: TimeWindow, now: number): {titles: string[]; data: number[]} | undefined {
  const inWindow = frames.filter((frame) => now - frame.at < window.seconds * 1000 && frame.alertsPerMinute);
  if (!inWindow.length) return undefined;
  const sources = [...new Set(inWindow.flatMap((frame) => Object.keys(frame.alertsPerMinute!)))].sort();
  const titles: string[] = [];
  const data: number[] = [];
  for (const source of sources) {
    for (const kind of ['errors', 'warnings'] as const) {
      titles.push(`${source} ${kind === 'errors' ? 'err' : 'warn'}`);
      data.push(Math.round(inWindow.reduce((total, frame) => total + (frame.alertsPerMinute![source]?.[kind] ?? 0), 0) / inWindow.length));
    }
  }
  return {titles, data};
}

/** CPU % and memory MB per process over the window, one sparkline each. */
export function processSparklines(frames: DashboardFrame[], window: TimeWindow, now: number): {titles: string[]; data: number[][]} {
  const names = [...new Set(frames.flatMap((frame) => frame.processes.map((entry) => entry.name)))];
  const latest = frames.at(-1);
  const titles: string[] = [];
  const data: number[][] = [];
  for (const name of names) {
    const current = latest?.processes.find((entry) => entry.name === name);
    const pick = (frame: DashboardFrame) => frame.processes.find((entry) => entry.name === name);
    titles.push(`${name} cpu ${current ? round(current.cpuPercent) + '%' : 'stopped'}`);
    data.push(buckets(frames, window, now, pick, (entry) => entry.cpuPercent));
    titles.push(`${name} mem ${current ? round(current.memoryMb) + ' MB' : 'stopped'}`);
    data.push(buckets(frames, window, now, pick, (entry) => entry.memoryMb));
  }
  return {titles, data};
}

/** The alert ring's fill in percent, or undefined when the daemon does not expose it. */
export function ringFill(frame: DashboardFrame | undefined): number | undefined {
  return frame?.alertRing ? Math.min(100, Math.round((frame.alertRing.used / frame.alertRing.capacity) * 100)) : undefined;
}
