import {z} from 'zod';
import {DEFAULT_LIMIT, errorQuery} from '../incidents/error-query.js';
import {formatErrorsCompact} from '../incidents/format.js';
import type {UnifiedError} from '../incidents/types.js';
import {pageFields, unifiedErrorSchema} from './output-schemas.js';
import {localProxyRecords} from './proxy-access.js';
import {defineTool, type ToolContext} from './registry-types.js';
import {spellArgs, spellFields, type Face} from './spell-args.js';

/** The one error-query schema with the tool's defaults and bounds, plus how the answer is shaped. */
export const getErrorsInput = z.strictObject({
  ...errorQuery.shape,
  include_warnings: z.boolean().default(true).describe('Include warnings with errors'),
  limit: z.number().int().min(1).max(10_000).default(DEFAULT_LIMIT).describe('Maximum errors returned; the answer says when more exist'),
  raw: z.boolean().default(false).describe('Return the JSON array of unified error objects instead of compact text'),
});

export type GetErrorsArgs = z.input<typeof getErrorsInput>;

export interface ErrorsPage {
  errors: UnifiedError[];
  /** How many entries match in all; `errors` holds the first `limit`. */
  total: number;
}

/** `get_errors`: the daemon's process alerts and proxy errors, or proxy errors only without a daemon; at most `limit`. */
export async function getErrors(args: GetErrorsArgs, context: ToolContext): Promise<UnifiedError[]> {
  return (await getErrorsPage(args, context)).errors;
}

/** get_errors with the count of all that match, so an answer can say when more exist. */
export async function getErrorsPage(args: GetErrorsArgs, context: ToolContext): Promise<ErrorsPage> {
  const {raw: _raw, limit = DEFAULT_LIMIT, ...filters} = args;
  // Everything that matches, so the answer can say how many more there are than it shows.
  const query = {...filters, limit: Number.MAX_SAFE_INTEGER};
  // The daemon answers the query; only legacy mode runs it here (so a client loads none of it).
  const all = context.noDaemon
    ? (await import('../incidents/query.js')).queryErrors({processAlerts: [], proxies: localProxyRecords(context)}, query)
    : await (await context.daemon()).call('errors.query', query);
  return {errors: all.slice(0, limit), total: all.length};
}

export function formatErrorsPage(page: ErrorsPage, _args?: unknown, face: Face = 'tool'): string {
  const text = formatErrorsCompact(page.errors);
  if (page.total <= page.errors.length) return text;
  const more = spellArgs(face, {limit: Math.min(page.total, 10_000)});
  return `${text}\n\n[showing ${page.errors.length} of ${page.total}: raise limit (e.g. ${more}) or narrow with ${spellFields(face, ['process_id', 'since'])}]`;
}

export const getErrorsTool = defineTool({
  name: 'get_errors',
  title: 'Errors, exact (legacy view)',
  description: [
    'Errors and warnings from every supervised process and proxy: exact entries (equal source, category, message and location merge), errors first, newest first, at most `limit`.',
    'Use it for a quick "what is broken now", filtered by process_id, proxy_id or since. Use get_incidents instead for the inbox: near-duplicates grouped, ids to open one whole, and read marks so you see only what is new.',
    'Example: {"process_id": "dev", "since": "5m", "limit": 10}',
  ].join('\n'),
  annotations: {readOnlyHint: true, idempotentHint: true, openWorldHint: false},
  input: getErrorsInput,
  output: z.object({errors: z.array(unifiedErrorSchema), ...pageFields}),
  handler: getErrorsPage,
  compact: formatErrorsPage,
  // The spec's raw output: the JSON array of unified error objects.
  raw: (page) => page.errors,
  structured: (page) => ({errors: page.errors, total: page.total, shown: page.errors.length}),
});
