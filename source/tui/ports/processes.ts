import type {ProcessInfo} from '../../processes/types.js';
import {detectTool} from '../../tools/detect.js';
import {procTask} from '../../tools/proc.js';
import type {ToolContext} from '../../tools/registry-types.js';
import {runTask} from '../../tools/run.js';
import {daemonWatch} from './daemonWatch.js';
import type {Unwatch, Watch} from './watch.js';

/** A script the user can start by name (from detect and .workbench.kdl). */
export interface ScriptChoice {
  name: string;
  command: string;
  source: string; // 'package.json', 'Makefile', '.workbench.kdl', ...
}

/**
 * The Processes pane's port: the `proc`, `run` and `detect` tool handlers, as `workbench proc
 * ...`, `workbench run <script>` and the MCP tools call them.
 */
export interface ProcessesPort {
  list(): Promise<ProcessInfo[]>;
  /** The last `tail` lines of a process's output (the whole ring without), ANSI kept (the pane renders colours). */
  output(id: string, tail?: number): Promise<string>;
  /** Starts a script by name, as `workbench run <script>` does. */
  start(scriptName: string): Promise<ProcessInfo>;
  stop(id: string): Promise<ProcessInfo>;
  restart(id: string): Promise<ProcessInfo>;
  /** The project's scripts, as `workbench detect` lists them. */
  scripts(): Promise<ScriptChoice[]>;
  /** Calls `onChange` when the process list may have changed: the daemon's `processes` events. */
  watch: Watch;
  /** Calls `onChange` when a process's output may have grown: the daemon's `output` events for it. */
  watchOutput(id: string, onChange: () => void): Unwatch;
}

export function createProcessesPort(context: ToolContext, options: {retryMs: number}): ProcessesPort {
  const daemon = () => context.daemon();
  const processOf = async (action: 'stop' | 'restart', id: string) => {
    const result = await procTask({action, process_id: id}, context);
    if (result.action !== action) throw new Error(`proc ${action} answered ${result.action}`);
    return result.process;
  };
  return {
    list: async () => {
      const result = await procTask({action: 'list'}, context);
      return result.action === 'list' ? result.processes : [];
    },
    // The daemon's answer as is: the pane scrolls through the whole ring, which a tool answer may cut to a budget.
    output: async (id, tail) => (await (await daemon()).call('proc.output', {id, tail, raw: true})).output,
    start: async (scriptName) => (await runTask({script_name: scriptName}, context)).process,
    stop: (id) => processOf('stop', id),
    restart: (id) => processOf('restart', id),
    scripts: async () => (await detectTool.handler({}, context)).scripts.map((script) => ({name: script.name, command: script.command, source: script.source})),
    watch: daemonWatch(daemon, {topic: 'processes', retryMs: options.retryMs}),
    watchOutput: (id, onChange) => daemonWatch(daemon, {topic: 'output', id, retryMs: options.retryMs})(onChange),
  };
}
