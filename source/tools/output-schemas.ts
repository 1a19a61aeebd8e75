import {z} from 'zod';

/**
 * The structured answers of the tools (MCP outputSchema). Objects stay open (`looseObject`) so a
 * field added to a record later does not break a client that validates against an older schema.
 */
export const processInfoSchema = z.looseObject({
  id: z.string(),
  command: z.string(),
  cwd: z.string(),
  scriptName: z.string().optional(),
  status: z.enum(['starting', 'running', 'exited', 'crashed', 'stopped']),
  pid: z.number().optional(),
  exitCode: z.number().nullable().optional(),
  signal: z.string().optional(),
  startedAt: z.number().describe('epoch ms'),
  endedAt: z.number().optional(),
  restarts: z.number(),
  outputBytes: z.number(),
  alertCount: z.number(),
});

export const unifiedErrorSchema = z.looseObject({
  source: z.string(),
  severity: z.enum(['error', 'warning']),
  category: z.string(),
  message: z.string(),
  location: z.string(),
  page: z.string(),
  count: z.number(),
  last_seen: z.string(),
});

export const incidentSchema = z.looseObject({
  id: z.string(),
  label: z.string(),
  kind: z.string(),
  severity: z.enum(['error', 'warning']),
  source: z.string(),
  category: z.string(),
  message: z.string(),
  location: z.string(),
  page: z.string(),
  count: z.number(),
  first_seen: z.string(),
  last_seen: z.string(),
});

/** How many there are in all, beside how many the answer holds. */
export const pageFields = {
  total: z.number().int().describe('How many match in all'),
  shown: z.number().int().describe('How many this answer holds; fewer than total when cut by limit or the answer budget'),
};
