import {z} from 'zod';
import {WorkbenchError} from '../core/errors.js';
import {queryErrors} from '../incidents/query.js';
import {queryIncidents} from '../incidents/incidents.js';
import type {ErrorSources} from '../incidents/types.js';
import type {Supervisor} from '../processes/supervisor.js';
import {selectOutput} from '../processes/output-ring.js';
import {stripAnsi} from '../processes/scanner/ansi.js';

/** What a method handler may use: the daemon's state and the connection that asked. */
export interface MethodContext {
  supervisor: Supervisor;
  startedAt: number;
  subscribe(processId: string | null): void;
  unsubscribe(processId: string | null): void;
  shutdown(): void;
}

const id = z.string().min(1).max(64);

const startParams = z.strictObject({
  cmd: z.string().min(1).max(8192),
  id: id.optional(),
  scriptName: z.string().max(128).optional(),
  cwd: z.string().max(4096).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cols: z.number().int().min(20).max(1000).optional(),
  rows: z.number().int().min(5).max(1000).optional(),
});

const outputParams = z.strictObject({
  id,
  tail: z.number().int().min(0).max(1_000_000).optional(),
  grep: z.string().max(1000).optional(),
  raw: z.boolean().optional(),
});

export const errorQueryParams = z.strictObject({
  process_id: z.string().max(128).optional(),
  proxy_id: z.string().max(128).optional(),
  since: z.string().max(64).optional(),
  include_warnings: z.boolean().optional(),
  limit: z.number().int().optional(),
});

type Handler = (params: unknown, context: MethodContext) => unknown;

function parse<T>(schema: z.ZodType<T>, params: unknown, method: string): T {
  const result = schema.safeParse(params ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new WorkbenchError('invalid_argument', `${method}: ${where}${issue?.message ?? 'invalid parameters'}`);
  }
  return result.data;
}

export function errorSources(supervisor: Supervisor): ErrorSources {
  // Proxies join here when the dev proxy arrives; until then the inbox holds process alerts.
  return {processAlerts: supervisor.alerts.list(), proxies: [], processIds: supervisor.ids()};
}

export function compileGrep(pattern: string | undefined): RegExp | undefined {
  if (pattern === undefined) return undefined;
  try {
    return new RegExp(pattern, 'i');
  } catch (error) {
    throw new WorkbenchError('invalid_argument', `invalid --grep pattern: ${(error as Error).message}`);
  }
}

export const methods: Record<string, Handler> = {
  ping: (_params, {startedAt}) => ({pid: process.pid, startedAt, version: 1}),

  'proc.start': (params, {supervisor}) => supervisor.start(parse(startParams, params, 'proc.start')),
  'proc.list': (_params, {supervisor}) => supervisor.list(),
  'proc.get': (params, {supervisor}) => supervisor.get(parse(z.strictObject({id}), params, 'proc.get').id),
  'proc.output': (params, {supervisor}) => {
    const {id: processId, tail, grep, raw} = parse(outputParams, params, 'proc.output');
    const text = supervisor.output(processId);
    return {id: processId, output: selectOutput(text, {tail, grep: compileGrep(grep), stripAnsi: raw ? undefined : stripAnsi})};
  },
  'proc.stop': (params, {supervisor}) => supervisor.stop(parse(z.strictObject({id}), params, 'proc.stop').id),
  'proc.restart': (params, {supervisor}) => supervisor.restart(parse(z.strictObject({id}), params, 'proc.restart').id),
  'proc.remove': (params, {supervisor}) => {
    supervisor.remove(parse(z.strictObject({id}), params, 'proc.remove').id);
    return {removed: true};
  },
  'proc.subscribe': (params, context) => {
    const {id: processId} = parse(z.strictObject({id: id.nullable()}), params, 'proc.subscribe');
    if (processId !== null) context.supervisor.get(processId);
    context.subscribe(processId);
    return {subscribed: processId};
  },
  'proc.unsubscribe': (params, context) => {
    const {id: processId} = parse(z.strictObject({id: id.nullable()}), params, 'proc.unsubscribe');
    context.unsubscribe(processId);
    return {subscribed: null};
  },

  'errors.query': (params, {supervisor}) => queryErrors(errorSources(supervisor), parse(errorQueryParams, params, 'get_errors')),
  'incidents.query': (_params, {supervisor}) => queryIncidents(errorSources(supervisor)),
  'alerts.list': (params, {supervisor}) => supervisor.alerts.list(parse(z.strictObject({id: id.optional()}), params, 'alerts.list').id),

  'daemon.stop': (_params, context) => {
    setImmediate(() => context.shutdown());
    return {stopping: true};
  },
};
