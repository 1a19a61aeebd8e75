import {z} from 'zod';
import {errorQuery} from '../incidents/error-query.js';
import {formatErrorsCompact, queryErrors} from '../incidents/index.js';
import type {UnifiedError} from '../incidents/types.js';
import {defineTool, type ToolContext} from './registry-types.js';

/** The one error-query schema, plus how the answer is shaped. */
export const getErrorsInput = errorQuery.extend({
  raw: z.boolean().optional().describe('Return the JSON array of unified error objects instead of compact text'),
});

export type GetErrorsArgs = z.infer<typeof getErrorsInput>;

/** `get_errors`: the daemon's process alerts and proxy errors, or proxy errors only without a daemon. */
export async function getErrors(args: GetErrorsArgs, context: ToolContext): Promise<UnifiedError[]> {
  const {raw: _raw, ...query} = args;
  if (context.noDaemon) return queryErrors({processAlerts: [], proxies: []}, query);
  const client = await context.daemon();
  return client.call('errors.query', query);
}

export const getErrorsTool = defineTool({
  name: 'get_errors',
  description: 'Errors and warnings from every supervised process and proxy, deduplicated and sorted (errors first, newest first). Compact text unless raw is true.',
  input: getErrorsInput,
  handler: getErrors,
  compact: (errors: UnifiedError[]) => formatErrorsCompact(errors),
});
