import {existsSync} from 'node:fs';
import {z} from 'zod';
import {daemonSocketPath} from '../core/paths.js';
import {DEFAULT_THRESHOLD, DEFAULT_TIMEOUT_S} from '../snapshot/defaults.js';
import type {BaselineResult, CompareResult, ListedSnapshot} from '../snapshot/snapshots.js';
import {formatDate, formatTable} from '../text/table.js';
import {fitArray} from './budget.js';
import {proxyAccess} from './proxy-access.js';
import {defineTool, type ToolContext} from './registry-types.js';

export const SNAPSHOT_ACTIONS = ['baseline', 'compare', 'list', 'delete'] as const;

export const snapshotInput = z.strictObject({
  action: z.enum(SNAPSHOT_ACTIONS).default('list').describe('baseline captures and stores a page; compare captures it again and diffs; list; delete'),
  name: z.string().min(1).max(200).optional().describe('The snapshot (every action but list): letters, digits, ".", "-", "_"'),
  url: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe("The page, http(s). baseline: defaults to the page open through a dev proxy (the one seen last); compare: defaults to the baseline's"),
  threshold: z.number().min(0).max(1).default(DEFAULT_THRESHOLD).describe('compare: the largest ratio of changed pixels that passes (0.01 = 1%)'),
  width: z.number().int().min(200).max(4096).optional().describe("Viewport width in pixels (baseline: 1280; compare: the baseline's)"),
  height: z.number().int().min(200).max(4096).optional().describe("Viewport height in pixels (baseline: 800; compare: the baseline's)"),
  full_page: z.boolean().optional().describe("The whole scrollable page instead of the viewport (baseline: false; compare: the baseline's)"),
  timeout: z.number().int().min(1).max(300).default(DEFAULT_TIMEOUT_S).describe('Seconds the capture may take, browser start and page load included'),
});

export type SnapshotArgs = z.input<typeof snapshotInput>;

export type SnapshotResult =
  ({action: 'baseline'} & BaselineResult) | ({action: 'compare'} & CompareResult) | {action: 'list'; snapshots: ListedSnapshot[]; total: number} | {action: 'delete'; name: string};

/** `snapshot`: the four actions over the logic in source/snapshot; images stay on disk, answers carry their paths. */
export async function snapshotTask(args: SnapshotArgs, context: ToolContext): Promise<SnapshotResult> {
  // Loaded on use: image decoding and the browser launcher are no part of other commands' start-up.
  const {compareSnapshot, deleteSnapshot, listSnapshots, takeBaseline} = await import('../snapshot/snapshots.js');
  // A tool call hears the capture's steps as progress, and its cancel closes the browser.
  const call = {signal: context.call?.signal, step: context.call?.progress.bind(context.call)};
  switch (args.action ?? 'list') {
    case 'baseline':
      return {action: 'baseline', ...(await takeBaseline({...args, url: args.url ?? (await currentPageUrl(context))}, call))};
    case 'compare':
      return {action: 'compare', ...(await compareSnapshot(args, call))};
    case 'delete':
      return {action: 'delete', ...deleteSnapshot(args.name)};
    case 'list': {
      const all = listSnapshots();
      // Within the answer budget (room left for the text beside it); the CLI lists them all.
      const shown = context.budget ? fitArray(all, Math.floor(context.budget / 2)).items : all;
      return {action: 'list', snapshots: shown, total: all.length};
    }
  }
}

/**
 * A baseline without a url takes the page open through a dev proxy: the connected one seen last.
 * Asked only of a daemon that is running (or of legacy mode's own proxies): a snapshot never
 * starts one.
 */
async function currentPageUrl(context: ToolContext): Promise<string | undefined> {
  if (!context.noDaemon && !existsSync(daemonSocketPath())) return undefined;
  if (context.noDaemon && !context.localProxies) return undefined;
  try {
    const pages = (await proxyAccess(context).pages()).flatMap((proxy) => proxy.pages.filter((page) => page.connected));
    return pages.sort((a, b) => b.lastSeen - a.lastSeen)[0]?.url;
  } catch {
    return undefined;
  }
}

export function formatSnapshotResult(result: SnapshotResult): string {
  switch (result.action) {
    case 'baseline': {
      const {snapshot} = result;
      return [
        `baseline ${snapshot.name}: ${snapshot.url} at ${snapshot.viewport.width}×${snapshot.viewport.height}${snapshot.full_page ? ' (full page)' : ''} → ${snapshot.image.width}×${snapshot.image.height} px${snapshot.status && snapshot.status >= 400 ? ` — the page answered ${snapshot.status}` : ''}`,
        `  ${result.baseline_path}`,
        ...refusedLines(result.refused),
      ].join('\n');
    }
    case 'compare':
      return formatComparison(result);
    case 'delete':
      return `deleted snapshot ${result.name}`;
    case 'list':
      return formatSnapshotList(result.snapshots, result.total);
  }
}

function formatComparison(result: CompareResult): string {
  const verdict = result.passed ? 'pass' : 'FAIL';
  const size = result.size_mismatch
    ? ` — sizes differ: baseline ${result.baseline_size.width}×${result.baseline_size.height}, now ${result.current_size.width}×${result.current_size.height}`
    : '';
  return [
    `${verdict} ${result.name}: ${percent(result.ratio)} of pixels changed (${result.changed_pixels.toLocaleString('en')} of ${result.total_pixels.toLocaleString('en')}), threshold ${percent(result.threshold)}${size}`,
    `  url      ${result.url}`,
    `  diff     ${result.diff_path}`,
    `  current  ${result.current_path}`,
    `  baseline ${result.baseline_path}`,
    ...refusedLines(result.refused),
  ].join('\n');
}

function formatSnapshotList(snapshots: ListedSnapshot[], total: number): string {
  if (total === 0) return 'no snapshots (take one with: workbench snapshot baseline <name> --url <url>)';
  const rows = snapshots.map((snapshot) => [
    snapshot.name,
    snapshot.url,
    `${snapshot.image.width}×${snapshot.image.height}`,
    formatDate(snapshot.created_at),
    snapshot.last_compare ? `${snapshot.last_compare.passed ? 'pass' : 'FAIL'} ${percent(snapshot.last_compare.ratio)}` : '-',
  ]);
  const table = formatTable(['NAME', 'URL', 'SIZE', 'TAKEN', 'LAST COMPARE'], rows);
  return total > snapshots.length ? `${table}[showing ${snapshots.length} of ${total}: the CLI's workbench snapshot list shows all; delete those you no longer need]\n` : table;
}

function refusedLines(refused: string[]): string[] {
  return refused.length ? [`  blocked while loading: ${refused.join('; ')}`] : [];
}

function percent(ratio: number): string {
  if (ratio === 0) return '0%';
  const value = ratio * 100;
  return `${value >= 1 ? value.toFixed(2) : value.toPrecision(2)}%`;
}

const sizeSchema = z.object({width: z.number(), height: z.number()});

export const snapshotTool = defineTool({
  name: 'snapshot',
  title: 'Visual snapshots: baseline, compare, list, delete',
  description: [
    'Photographs a web page in headless Chromium and compares it pixel by pixel with a stored baseline, to catch visual regressions after a change.',
    'baseline stores the page under a name (url, or the page open through a dev proxy; viewport 1280×800 unless width/height). compare captures it again (the same url and viewport unless given) and answers the ratio of changed pixels, pass or fail against threshold, and the path of a diff image (changed pixels in red) — never the image itself. list and delete manage the stored snapshots.',
    'Examples: {"action": "baseline", "name": "home", "url": "http://127.0.0.1:3000/"}; {"action": "compare", "name": "home", "threshold": 0.005}; {"action": "list"}',
  ].join('\n'),
  // One tool with actions: baseline replaces a stored image and delete removes one; it visits the URL it is given.
  annotations: {readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true},
  input: snapshotInput,
  // Open, as the records in output-schemas.ts: a field added later does not break a client that validates.
  output: z.looseObject({
    action: z.enum(SNAPSHOT_ACTIONS),
    name: z.string().optional(),
    snapshot: z.looseObject({name: z.string(), url: z.string(), viewport: sizeSchema, image: sizeSchema, created_at: z.string()}).optional().describe('baseline'),
    snapshots: z
      .array(z.looseObject({name: z.string(), url: z.string(), image: sizeSchema, created_at: z.string(), baseline_path: z.string()}))
      .optional()
      .describe('list'),
    total: z.number().int().optional().describe('list: how many snapshots there are; `snapshots` holds those that fit the answer'),
    url: z.string().optional(),
    ratio: z.number().optional().describe('compare: changed pixels / all pixels'),
    changed_pixels: z.number().optional(),
    total_pixels: z.number().optional(),
    threshold: z.number().optional(),
    passed: z.boolean().optional().describe('compare: ratio ≤ threshold and the same size'),
    size_mismatch: z.boolean().optional(),
    baseline_size: sizeSchema.optional(),
    current_size: sizeSchema.optional(),
    baseline_path: z.string().optional(),
    current_path: z.string().optional(),
    diff_path: z.string().optional().describe('compare: PNG with changed pixels in red'),
    compared_at: z.string().optional(),
    refused: z.array(z.string()).optional().describe('Requests of the page the address policy blocked'),
  }),
  handler: snapshotTask,
  compact: formatSnapshotResult,
  structured: (result) => ({...result}),
});
