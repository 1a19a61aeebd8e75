import {z} from 'zod';

/**
 * The structured answers of the tools (MCP outputSchema). Objects stay open (`looseObject`) so a
 * field added to a record later does not break a client that validates against an older schema.
 */
export const processInfoSchema = z.looseObject({
  id: z.string(),
  project: z.string().optional().describe('the project root the process belongs to'),
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

export const proxyInfoSchema = z.looseObject({
  id: z.string(),
  target: z.string(),
  url: z.string(),
  port: z.number(),
  startedAt: z.number().describe('epoch ms'),
  logSize: z.number(),
  requests: z.number(),
  errors: z.number(),
  pages: z.number(),
});

export const execResultSchema = z.looseObject({
  session: z.string(),
  url: z.string(),
  ok: z.boolean(),
  value: z.unknown().optional(),
  error: z.string().optional(),
});

export const pageSessionSchema = z.looseObject({
  session: z.string(),
  url: z.string(),
  title: z.string(),
  loadedAt: z.number(),
  lastSeen: z.number(),
  lastInteraction: z.number().optional(),
  errors: z.number(),
  failedRequests: z.number(),
  connected: z.boolean(),
});

/** A traffic-log entry: every type shares these; the rest depends on `type`. */
export const trafficEntrySchema = z.looseObject({
  seq: z.number(),
  type: z.enum(['http', 'error', 'custom', 'diagnostic', 'page']),
  timestamp: z.number().describe('epoch ms'),
});
