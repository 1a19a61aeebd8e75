import {z} from 'zod';

/** `get_errors` `limit` default (spec 1, Limits). */
export const DEFAULT_LIMIT = 25;

/**
 * `get_errors` parameters (spec 1, table get_errors): the one schema behind the MCP tool, the CLI
 * command and the daemon's `errors.query`. Values are checked once more by `queryErrors`, which
 * words its errors for people (a bad `limit` or `since`).
 */
export const errorQuery = z.object({
  process_id: z.string().min(1).max(4200).optional().describe('Restrict to one process: its id in this project, or <project root>#<id>'),
  proxy_id: z.string().min(1).max(128).optional().describe('Restrict to one proxy'),
  since: z.string().min(1).max(64).optional().describe('RFC 3339 timestamp or a duration such as 30s, 5m, 1h'),
  include_warnings: z.boolean().optional().describe('Include warnings with errors (default true)'),
  limit: z.number().int().optional().describe('Maximum errors returned (default 25)'),
});

export type ErrorQuery = z.infer<typeof errorQuery>;
