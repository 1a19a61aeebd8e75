import {collectMetrics, type CollectOptions} from '../metrics/collect.js';
import {figures, type Figures} from '../metrics/figures.js';
import {json, text} from './command-result.js';
import type {CommandResult} from './command-output.js';

export const NOTHING_RUNNING = 'nothing is running: start workbench serve reader|gateway|graphql, or a dev server';
// Long enough for a rate to mean something, short enough for a script.
const GAP_MS = 1000;

export interface MetricsReport {
  /** False when no source answered: the figures are then empty. */
  running: boolean;
  figures: Figures;
}

/** Reads every source twice, ~1 s apart, and answers the figures between the reads. */
export async function readMetricsFigures(options: CollectOptions & {gapMs?: number} = {}): Promise<MetricsReport> {
  const before = await collectMetrics(options);
  await new Promise((resolve) => setTimeout(resolve, options.gapMs ?? GAP_MS));
  const after = await collectMetrics(options);
  const result = figures(before, after);
  return {running: result.sources.some((source) => source.state === 'up'), figures: result};
}

/** `workbench metrics [--json]`: the figures as JSON or as a table; what to start when nothing runs (exit 0 either way). */
export async function metricsCommand(flags: {json: boolean}): Promise<CommandResult> {
  const report = await readMetricsFigures();
  if (flags.json) return json(report.running ? report.figures : {...report.figures, message: NOTHING_RUNNING});
  return text(report.running ? formatFigures(report.figures) : NOTHING_RUNNING);
}

const seconds = (value: number | null) => (value === null ? '-' : value < 1 ? `${(value * 1000).toFixed(value < 0.01 ? 1 : 0)}ms` : `${value}s`);
const megabytes = (bytes: number | null) => (bytes === null ? '-' : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
const rate = (value: number) => value.toFixed(value < 10 ? 1 : 0);

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_cell, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The figures as a few small tables, one per kind, skipping the empty ones. */
export function formatFigures(result: Figures): string {
  const parts: string[] = [];
  parts.push(table([['SOURCE', 'STATE'], ...result.sources.map((source) => [source.name, source.state === 'up' ? 'up' : `${source.state}: ${source.error ?? ''}`])]));
  if (result.http.length) {
    parts.push(
      table([
        ['HTTP', 'REQUESTS', 'REQ/S', 'P50', 'P95', 'P99', '2XX', '3XX', '4XX', '5XX'],
        ...result.http.map((row) => [
          row.name,
          String(row.requestsTotal),
          rate(row.requestsPerSecond),
          seconds(row.p50),
          seconds(row.p95),
          seconds(row.p99),
          ...(['2xx', '3xx', '4xx', '5xx'] as const).map((kind) => String(row.statuses[kind])),
        ]),
      ]),
    );
  }
  if (result.processes.length) {
    parts.push(
      table([
        ['PROCESS', 'CPU', 'MEMORY'],
        ...result.processes.map((row) => [row.name, row.cpuPercent === null ? '-' : `${row.cpuPercent.toFixed(1)}%`, megabytes(row.residentBytes)]),
      ]),
    );
  }
  if (result.errors.length) {
    parts.push(table([['ERRORS BY SOURCE', 'ERRORS/MIN', 'WARNINGS/MIN'], ...result.errors.map((row) => [row.source, rate(row.errorsPerMinute), rate(row.warningsPerMinute)])]));
  }
  const lines: string[] = [];
  if (result.alertRing) lines.push(`alert ring: ${result.alertRing.entries}/${result.alertRing.capacity}`);
  if (result.poller)
    lines.push(
      `feed poller: ${rate(result.poller.fetchesPerMinute)} fetches/min, ${rate(result.poller.notModifiedPerMinute)} 304s/min, ${rate(result.poller.failuresPerMinute)} failures/min`,
    );
  if (result.outboxBacklog !== null) lines.push(`outbox backlog: ${result.outboxBacklog} pending`);
  if (lines.length) parts.push(lines.join('\n'));
  return parts.join('\n\n');
}
