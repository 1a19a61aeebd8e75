import type {ScriptChoice, TuiBackend} from '../../../source/tui/backend.js';
import type {ProcessInfo, StartRequest} from '../../../source/processes/types.js';
import type {ErrorQuery, UnifiedError} from '../../../source/incidents/types.js';

const NOW = Date.now();
const iso = (agoMs: number) => new Date(NOW - agoMs).toISOString();

export function sampleProcesses(): ProcessInfo[] {
  return [
    {id: 'web', command: 'npm run dev', cwd: '/work/demo', scriptName: 'dev', status: 'running', pid: 4242, startedAt: NOW - 65_000, restarts: 0, outputBytes: 900, alertCount: 1},
    {id: 'worker', command: 'node worker.js', cwd: '/work/demo', status: 'crashed', exitCode: 1, startedAt: NOW - 600_000, endedAt: NOW - 300_000, restarts: 2, outputBytes: 300, alertCount: 1},
    {id: 'build', command: 'tsc -p .', cwd: '/work/demo', status: 'exited', exitCode: 0, startedAt: NOW - 900_000, endedAt: NOW - 890_000, restarts: 0, outputBytes: 40, alertCount: 0},
  ];
}

/** What a dev server's pty really prints: colours, a progress line redrawn with \r and erase-line. */
export const WEB_OUTPUT = [
  '\u001b[36m> demo@1.0.0 dev\u001b[39m',
  '\u001b[2K\rbuilding 10%\rbuilding 55%\r\u001b[2K\rbuilding done',
  '\u001b[32m✓ compiled\u001b[39m in 312ms',
  `GET /api/items ${'x'.repeat(300)} END-OF-LONG-LINE`,
  '\u001b]0;window title\u0007ready on http://localhost:3000',
  '',
].join('\r\n');

export const WORKER_OUTPUT = 'worker starting\r\nTypeError: Cannot read properties of undefined (reading \'id\')\r\n    at run (/work/demo/worker.js:12:7)\r\n';

export function sampleErrors(): UnifiedError[] {
  return [
    {source: 'proxy:http', severity: 'warning', category: '404 Not Found', message: 'GET /api/missing', location: '', page: 'http://localhost:3000/', count: 4, last_seen: iso(120_000)},
    {
      source: 'process:worker',
      severity: 'error',
      category: 'TypeError',
      message: "Cannot read properties of undefined (reading 'id')\nwhile handling job 17 of queue imports",
      location: '/work/demo/worker.js:12:7',
      page: '',
      count: 3,
      last_seen: iso(5_000),
    },
    {source: 'browser:js', severity: 'error', category: 'ReferenceError', message: 'chart is not defined', location: 'http://localhost:3000/app.js:88:3', page: 'http://localhost:3000/dashboard', count: 1, last_seen: iso(60_000)},
  ];
}

export const SCRIPTS: ScriptChoice[] = [
  {name: 'dev', command: 'vite', source: 'package.json'},
  {name: 'test', command: 'vitest run', source: 'package.json'},
];

type Failing = Partial<Record<keyof TuiBackend, Error>>;

/** A TuiBackend over arrays, recording every action, able to fail any call on demand. */
export class MemoryBackend implements TuiBackend {
  processes = sampleProcesses();
  errors = sampleErrors();
  outputs: Record<string, string> = {web: WEB_OUTPUT, worker: WORKER_OUTPUT, build: 'done\n'};
  calls: Array<{method: string; argument: unknown}> = [];
  failing: Failing = {};

  constructor(failing: Failing = {}) {
    this.failing = failing;
  }

  private check(method: keyof TuiBackend, argument?: unknown): void {
    if (method !== 'listProcesses' && method !== 'getErrors' && method !== 'describe' && method !== 'output') this.calls.push({method, argument});
    const failure = this.failing[method];
    if (failure) throw failure;
  }

  async listProcesses(): Promise<ProcessInfo[]> {
    this.check('listProcesses');
    return this.processes.map(process => ({...process}));
  }

  async output(id: string): Promise<string> {
    this.check('output', id);
    return this.outputs[id] ?? '';
  }

  async start(request: StartRequest): Promise<ProcessInfo> {
    this.check('start', request);
    const info: ProcessInfo = {id: request.scriptName ?? 'cmd', command: 'vitest run', cwd: '/work/demo', scriptName: request.scriptName, status: 'running', pid: 5151, startedAt: Date.now(), restarts: 0, outputBytes: 0, alertCount: 0};
    this.processes.push(info);
    this.outputs[info.id] = 'RUN  v4.1.0 /work/demo\n';
    return info;
  }

  async stop(id: string): Promise<ProcessInfo> {
    this.check('stop', id);
    return this.update(id, {status: 'stopped', endedAt: Date.now()});
  }

  async restart(id: string): Promise<ProcessInfo> {
    this.check('restart', id);
    return this.update(id, {status: 'running', pid: 6000, startedAt: Date.now()});
  }

  async getErrors(query: ErrorQuery): Promise<UnifiedError[]> {
    this.check('getErrors', query);
    return this.errors.slice(0, query.limit ?? 25);
  }

  async scripts(): Promise<ScriptChoice[]> {
    this.check('scripts');
    return SCRIPTS;
  }

  async describe(): Promise<string> {
    this.check('describe');
    return 'daemon up · demo';
  }

  private update(id: string, patch: Partial<ProcessInfo>): ProcessInfo {
    const process = this.processes.find(item => item.id === id);
    if (!process) throw new Error(`no process ${id}`);
    Object.assign(process, patch);
    return {...process};
  }
}
