import {z} from 'zod';
import {formatTraffic, summarizeTraffic} from '../devproxy/describe-traffic.js';
import {proxyIdSchema, statusCodeSchema, trafficTypeSchema, TRAFFIC_TYPES} from '../devproxy/params.js';
import type {TrafficEntry} from '../devproxy/types.js';
import {parseOptionalSince} from '../incidents/query.js';
import {answerRoom, fileIfTooLong} from './answer-file.js';
import {trafficEntrySchema} from './output-schemas.js';
import {proxyAccess} from './proxy-access.js';
import {defineTool, type ToolContext} from './registry-types.js';
import {spellArgs, spellFields, type Face} from './spell-args.js';

export const PROXYLOG_LIMIT = 100;
/** Lines of the newest traffic an answer shows beside the file when the log is too long for it. */
const PREVIEW_LINES = 20;

export const proxylogInput = z.strictObject({
  proxy_id: proxyIdSchema.describe('The proxy whose log to read'),
  types: z
    .array(trafficTypeSchema)
    .min(1)
    .max(TRAFFIC_TYPES.length)
    .optional()
    .describe('Entry types: http (requests), error (browser exceptions), custom (__devtool.log), diagnostic (transport errors), page (loads, navigations); all when absent'),
  status_codes: z.array(statusCodeSchema).min(1).max(100).optional().describe('Only HTTP entries with one of these statuses (0: failed in transport)'),
  since: z.string().min(1).max(64).optional().describe('RFC 3339 timestamp or a duration such as 30s, 5m, 1h'),
  path: z.string().min(1).max(2048).optional().describe('Only HTTP entries whose URL contains this text'),
  limit: z.number().int().min(1).max(10_000).default(PROXYLOG_LIMIT).describe('The newest entries, at most this many (oldest first in the answer)'),
  raw: z.boolean().default(false).describe('Return the JSON array of entries (headers, bodies, timings) instead of one line each'),
});

export type ProxylogArgs = z.input<typeof proxylogInput>;

export interface ProxylogResult {
  proxy_id: string;
  entries: TrafficEntry[];
  /** Older matching entries exist beyond `limit`. */
  more: boolean;
  /** The answer was too long: the whole of it is in this file. */
  file?: string;
}

export async function proxylogTask(args: ProxylogArgs, context: ToolContext): Promise<ProxylogResult> {
  const limit = args.limit ?? PROXYLOG_LIMIT;
  const since = parseOptionalSince(args.since, Date.now());
  // One more than asked tells whether older ones were left out.
  const found = await proxyAccess(context).log({
    id: args.proxy_id,
    types: args.types,
    statusCodes: args.status_codes,
    since: Number.isFinite(since) ? since : undefined,
    path: args.path,
    limit: limit + 1,
  });
  const more = found.length > limit;
  const entries = more ? found.slice(found.length - limit) : found;
  const whole = () => JSON.stringify(entries, null, 2);
  const file = fileIfTooLong(args.raw ? whole() : formatTraffic(entries), {budget: answerRoom(context), kind: `proxylog-${args.proxy_id}`, whole});
  return {proxy_id: args.proxy_id, entries, more, file};
}

/** The CLI's flags that are not the argument's name (commands/proxylog.tsx). */
const CLI_FLAGS = {status_codes: '--status'};

export function formatProxylog(result: ProxylogResult, args: {limit: number}, face: Face = 'tool'): string {
  const more = spellArgs(face, {limit: Math.min(args.limit * 10, 10_000)});
  const narrow = spellFields(face, ['types', 'status_codes', 'since', 'path'], CLI_FLAGS);
  const olderHint = result.more ? `[older entries left out: raise limit (e.g. ${more}) or narrow with ${narrow}]\n` : '';
  if (result.entries.length === 0) return `no matching entries in the log of ${result.proxy_id}\n`;
  if (!result.file) return formatTraffic(result.entries) + olderHint;
  const preview = result.entries.slice(-PREVIEW_LINES);
  return [
    `${summarizeTraffic(result.entries)}`,
    `the newest ${preview.length}:`,
    formatTraffic(preview).trimEnd(),
    `[all ${result.entries.length} entries, with headers and bodies, are in ${result.file}]`,
    olderHint.trimEnd(),
  ]
    .filter(Boolean)
    .join('\n')
    .concat('\n');
}

export const proxylogTool = defineTool({
  name: 'proxylog',
  title: 'Dev proxy traffic log',
  description: [
    "A proxy's log: requests (method, URL, status, timing, sizes, headers, the start of bodies), browser errors, __devtool.log calls, transport diagnostics and page loads, oldest first.",
    'Filter by types, status_codes, since and path; raw gives the JSON entries with headers and bodies. A log too long for the answer goes to a file under WORKBENCH_HOME, and the answer gives a summary and its path.',
    'Example: {"proxy_id": "app", "types": ["http"], "status_codes": [404, 500], "since": "5m"}',
  ].join('\n'),
  annotations: {readOnlyHint: true, idempotentHint: true, openWorldHint: false},
  input: proxylogInput,
  output: z.object({
    proxy_id: z.string(),
    entries: z.array(trafficEntrySchema),
    more: z.boolean().describe('Older matching entries were left out by limit'),
    file: z.string().optional().describe('The whole answer, when too long to carry'),
  }),
  handler: proxylogTask,
  compact: formatProxylog,
  raw: (result) => (result.file ? {proxy_id: result.proxy_id, summary: summarizeTraffic(result.entries), file: result.file, more: result.more} : result.entries),
  structured: (result) => ({...result}),
});
