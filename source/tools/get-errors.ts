import {z} from 'zod';
import {formatErrorsCompact, queryErrors} from '../incidents/index.js';
import type {ErrorQuery, UnifiedError} from '../incidents/types.js';
import {defineTool, type ToolContext} from './registry-types.js';

export const getErrorsInput = z.object({
  process_id: z.string().min(1).max(128).optional().describe('Restrict to one process'),
  proxy_id: z.string().min(1).max(128).optional().describe('Restrict to one proxy'),
  since: z.string().min(1).max(64).optional().describe('RFC 3339 timestamp or a duration such as 30s, 5m, 1h'),
  include_warnings: z.boolean().optional().describe('Include warnings with errors (default true)'),
  limit: z.number().int().optional().describe('Maximum errors returned (default 25)'),
  raw: z.boolean().optional().describe('Return the JSON array of unified error objects instead of compact text'),
});

export type GetErrorsArgs = z.infer<typeof getErrorsInput>;

/** `get_errors`: the daemon's process alerts and proxy errors, or proxy errors only without a daemon. */
export async function getErrors(args: GetErrorsArgs, context: ToolContext): Promise<UnifiedError[]> {
  const {raw: _raw, ...query} = args;
  if (context.noDaemon) return queryErrors({processAlerts: [], proxies: []}, query as ErrorQuery);
  const client = await context.daemon();
  return client.call<UnifiedError[]>('errors.query', query);
}

export const getErrorsTool = defineTool({
  name: 'get_errors',
  description: 'Errors and warnings from every supervised process and proxy, deduplicated and sorted (errors first, newest first). Compact text unless raw is true.',
  input: getErrorsInput,
  handler: getErrors,
  compact: (errors: UnifiedError[]) => formatErrorsCompact(errors),
});
