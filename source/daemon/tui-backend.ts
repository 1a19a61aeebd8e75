import {basename} from 'node:path';
import type {ErrorQuery, UnifiedError} from '../incidents/types.js';
import type {ProcessInfo, StartRequest} from '../processes/types.js';
import {detectProject} from '../project/detect.js';
import type {ScriptChoice, TuiBackend} from '../tui/backend.js';
import type {ToolContext} from '../tools/registry-types.js';

/** The TUI's backend: the same daemon methods the CLI and MCP faces call. */
export function createDaemonBackend(context: ToolContext, root: string): TuiBackend {
  let reader: Promise<import('../feeds/contracts.js').ReaderService> | undefined;
  const call = async <T>(method: string, params?: unknown) => (await context.daemon()).call<T>(method, params);
  return {
    listProcesses: () => call<ProcessInfo[]>('proc.list'),
    output: async (id, tail) => (await call<{output: string}>('proc.output', {id, tail, raw: true})).output,
    start: (request: StartRequest) => call<ProcessInfo>('proc.start', {cwd: root, ...request}),
    stop: (id) => call<ProcessInfo>('proc.stop', {id}),
    restart: (id) => call<ProcessInfo>('proc.restart', {id}),
    getErrors: (query: ErrorQuery) => call<UnifiedError[]>('errors.query', query),
    scripts: async (): Promise<ScriptChoice[]> => (await detectProject(root)).scripts.map((script) => ({name: script.name, command: script.command, source: script.source})),
    reader: () => (reader ??= import('../feeds/client/connect.js').then(({openReader}) => openReader())),
    describe: async () => {
      const ping = await call<{pid: number}>('ping');
      return `daemon pid ${ping.pid} · ${basename(root)}`;
    },
  };
}
