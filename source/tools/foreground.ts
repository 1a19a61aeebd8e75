import type {DaemonClient} from '../daemon/client.js';
import type {ProcessInfo, StartRequest} from '../processes/types.js';

export interface ForegroundRun {
  info: ProcessInfo;
  /** Output seen while waiting, when collected (MCP); the CLI streams it instead. */
  output: string;
  timedOut: boolean;
}

const ended = (info: ProcessInfo) => info.status !== 'running' && info.status !== 'starting';

/**
 * Starts a process in the daemon and follows it until it ends: output as it comes, then the final
 * state. Subscribes before starting so not a byte of early output is missed; the daemon sends a
 * process's last output before the `processes` event that says it ended.
 */
export async function runForeground(
  client: DaemonClient,
  request: StartRequest & {cmd: string},
  options: {onOutput?: (data: string) => void; observe?: (data: string) => void; onStart?: (info: ProcessInfo) => void; timeoutMs?: number; collectLimit?: number} = {},
): Promise<ForegroundRun> {
  // Events that come before proc.start answers wait here until the process id is known.
  const early: Array<{processId: string; data: string} | {process: ProcessInfo}> = [];
  let processId: string | undefined;
  let output = '';
  const limit = options.collectLimit ?? 64 * 1024;
  let finish!: (info: ProcessInfo) => void;
  const done = new Promise<ProcessInfo>((resolve) => (finish = resolve));

  const onOutput = (data: string) => {
    options.observe?.(data);
    options.onOutput?.(data);
    if (!options.onOutput) output = (output + data).slice(-limit);
  };
  const unsubscribers = [
    await client.subscribe('output', (event) => {
      if (processId === undefined) early.push(event);
      else if (event.processId === processId) onOutput(event.data);
    }),
    await client.subscribe('processes', ({process}) => {
      if (processId === undefined) early.push({process});
      else if (process.id === processId && ended(process)) finish(process);
    }),
  ];
  try {
    const started = await client.call('proc.start', request);
    processId = started.id;
    options.onStart?.(started);
    for (const event of early.splice(0)) {
      if ('data' in event) {
        if (event.processId === processId) onOutput(event.data);
      } else if (event.process.id === processId && event.process.startedAt >= started.startedAt && ended(event.process)) finish(event.process);
    }
    if (ended(started)) finish(started);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      if (options.timeoutMs) timer = setTimeout(() => resolve(undefined), options.timeoutMs);
    });
    const info = await Promise.race([done, timeout]);
    clearTimeout(timer);
    if (info) return {info, output, timedOut: false};
    return {info: await client.call('proc.get', {id: processId}), output, timedOut: true};
  } finally {
    for (const unsubscribe of unsubscribers) await unsubscribe().catch(() => undefined);
  }
}
