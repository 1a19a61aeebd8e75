import {z} from 'zod';
import {WorkbenchError} from '../core/errors.js';
import {describeProxy, formatExecResults, formatProxyStatus, formatProxyTable} from '../devproxy/describe.js';
import {EXEC_TIMEOUT_DEFAULT_MS, execTimeoutSchema, logSizeSchema, portSchema, proxyIdSchema, targetUrlSchema} from '../devproxy/params.js';
import type {ExecResult, ProxyInfo} from '../devproxy/types.js';
import {proxyNotFound} from '../incidents/error-response.js';
import {declaredProxyTarget} from '../project/proxy-target.js';
import {answerRoom, fileIfTooLong} from './answer-file.js';
import {whileWaiting} from './call-progress.js';
import {execResultSchema, proxyInfoSchema} from './output-schemas.js';
import {proxyAccess} from './proxy-access.js';
import {defineTool, type ToolContext} from './registry-types.js';

export const PROXY_ACTIONS = ['list', 'start', 'stop', 'status', 'exec'] as const;

export const proxyInput = z.strictObject({
  action: z.enum(PROXY_ACTIONS).default('list').describe('list and status read; start and stop change; exec runs code in the connected page(s)'),
  id: proxyIdSchema.optional().describe('The proxy (every action but list)'),
  target: targetUrlSchema.optional().describe('start: the dev server to forward to, e.g. http://127.0.0.1:3000'),
  target_url: targetUrlSchema.optional().describe('start: the same as target (both spellings are accepted)'),
  port: portSchema.optional().describe('start: the port to listen on; a free one when absent or 0'),
  next_free: z.boolean().default(false).describe('start: take the next free port above `port` when it is taken'),
  log_size: logSizeSchema.optional().describe('start: traffic-log ring size in entries (default 1000)'),
  code: z.string().min(1).max(100_000).optional().describe('exec: JavaScript run in the page; its value (awaited when a promise) comes back as JSON'),
  session: z.string().min(1).max(64).optional().describe('exec: one page session (see currentpage); every connected page when absent'),
  timeout_ms: execTimeoutSchema.default(EXEC_TIMEOUT_DEFAULT_MS).describe('exec: how long to wait for the page'),
});

export type ProxyArgs = z.input<typeof proxyInput>;

export type ProxyResult =
  | {action: 'list'; proxies: ProxyInfo[]}
  | {action: 'start' | 'stop' | 'status'; proxy: ProxyInfo}
  /** `file`: the results were too long for the answer and are there, whole. */
  | {action: 'exec'; id: string; results: ExecResult[]; file?: string};

export async function proxyTask(args: ProxyArgs, context: ToolContext): Promise<ProxyResult> {
  const action = args.action ?? 'list';
  const access = proxyAccess(context);
  if (action === 'list') return {action, proxies: await access.list()};
  const id = args.id;
  if (!id) throw new WorkbenchError('invalid_argument', `proxy ${action} needs an id, e.g. ${example(action)}.`);
  switch (action) {
    case 'start': {
      if (args.target && args.target_url && args.target !== args.target_url) throw new WorkbenchError('invalid_argument', 'give target or target_url, not two different addresses');
      // An explicit target wins; without one, the target .workbench.kdl declares for this id.
      const declared = args.target || args.target_url ? undefined : await declaredProxyTarget(context.cwd, id);
      const target = args.target ?? args.target_url ?? declared?.target;
      if (!target) throw new WorkbenchError('invalid_argument', `proxy start needs a target: ${declared!.missing}; e.g. ${example('start')}.`);
      // A proxy whose start the caller cancelled is stopped again once it is up: nobody was told of it.
      const started = access.start({id, target, port: args.port, nextFree: args.next_free, logSize: args.log_size});
      const proxy = await whileWaiting(
        context,
        started,
        (seconds) => `starting proxy ${id} for ${target}, ${seconds}s`,
        (late) => access.stop(late.id),
      );
      return {action, proxy};
    }
    case 'stop':
      return {action, proxy: await access.stop(id)};
    case 'status': {
      const proxies = await access.list();
      const proxy = proxies.find((info) => info.id === id);
      if (!proxy)
        throw proxyNotFound(
          id,
          proxies.map((info) => info.id),
        );
      return {action, proxy};
    }
    case 'exec': {
      if (!args.code) throw new WorkbenchError('invalid_argument', `proxy exec needs code, e.g. ${example('exec')}.`);
      const timeoutS = Math.round((args.timeout_ms ?? EXEC_TIMEOUT_DEFAULT_MS) / 1000);
      const running = access.exec({id, code: args.code, session: args.session, timeoutMs: args.timeout_ms});
      const results = await whileWaiting(context, running, (seconds) => `waiting for the page(s) of ${id}, ${seconds}s of at most ${timeoutS}s`);
      const file = fileIfTooLong(formatExecResults(results), {budget: answerRoom(context), kind: `exec-${id}`, whole: () => JSON.stringify(results, null, 2)});
      return {action, id, results, file};
    }
  }
}

function example(action: (typeof PROXY_ACTIONS)[number]): string {
  if (action === 'start') return '{"action": "start", "id": "app", "target": "http://127.0.0.1:3000"}';
  if (action === 'exec') return '{"action": "exec", "id": "app", "code": "document.title"}';
  return `{"action": "${action}", "id": "app"}`;
}

/** The compact answer; exec values too long for it were written to a file, and it says where. */
export function formatProxyResult(result: ProxyResult): string {
  switch (result.action) {
    case 'list':
      return formatProxyTable(result.proxies);
    case 'start':
      return `started proxy ${describeProxy(result.proxy)}\nopen ${result.proxy.url} in a browser: its pages report errors to get_errors and show in currentpage\n`;
    case 'stop':
      return `stopped proxy ${result.proxy.id} after ${result.proxy.requests} requests\n`;
    case 'status':
      return formatProxyStatus(result.proxy) + '\n';
    case 'exec': {
      if (!result.file) return formatExecResults(result.results) + '\n';
      const answered = result.results.filter((one) => one.ok).length;
      return `exec in ${result.results.length} page(s) of ${result.id}: ${answered} answered, ${result.results.length - answered} threw; the values are too long to show here\n[the whole answer is in ${result.file}]\n`;
    }
  }
}

export const proxyTool = defineTool({
  name: 'proxy',
  title: 'Dev proxy: start, stop, list, run code in the page',
  description: [
    'A reverse proxy in front of a dev server: the app works through it as before, and every HTML page gets a script that reports browser errors, failed requests and page loads (see get_errors, proxylog, currentpage) and defines window.__devtool with diagnostic functions.',
    'Reads: list, status. Changes state: start (target or target_url; port, or a free one), stop. exec runs JavaScript in the connected page(s) and returns its JSON value or the error it threw.',
    'Examples: {"action": "start", "id": "app", "target": "http://127.0.0.1:3000"}; {"action": "exec", "id": "app", "code": "document.title"}; {"action": "list"}',
  ].join('\n'),
  // exec runs arbitrary code in a page and stop ends a proxy.
  annotations: {readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true},
  input: proxyInput,
  output: z.object({
    action: z.enum(PROXY_ACTIONS),
    proxies: z.array(proxyInfoSchema).optional().describe('list'),
    proxy: proxyInfoSchema.optional().describe('start, stop, status'),
    id: z.string().optional().describe('exec'),
    results: z.array(execResultSchema).optional().describe('exec: one per page that ran the code'),
    file: z.string().optional().describe('exec: the whole results, when too long for the answer'),
  }),
  handler: proxyTask,
  compact: formatProxyResult,
  structured: (result) => ({...result}),
  // Code that threw (or a page that did not answer) fails the call; the values of the pages that answered still come back.
  failure: (result) => {
    if (result.action !== 'exec') return undefined;
    const failed = result.results.flatMap((each) => (each.ok ? [] : [`page ${each.session} (${each.url}): ${each.error}`]));
    return failed.length ? failed.join('; ') : undefined;
  },
});
