import type {DaemonClient} from '../daemon/client.js';
import type {DaemonEvent} from '../daemon/protocol.js';
import type {ProcessInfo, StartRequest} from './types.js';

export interface ForegroundRun {
  info: ProcessInfo;
  /** Output seen while waiting, when collected (MCP); the CLI streams it instead. */
  output: string;
  timedOut: boolean;
}

/**
 * Starts a process in the daemon and follows it until it ends: output as it comes, then the final
 * state. Subscribes before starting so not a byte of early output is missed.
 */
export async function runForeground(
  client: DaemonClient,
  request: StartRequest,
  options: {onOutput?: (data: string) => void; onStart?: (info: ProcessInfo) => void; timeoutMs?: number; collectLimit?: number} = {},
): Promise<ForegroundRun> {
  const early: DaemonEvent[] = [];
  let processId: string | undefined;
  let output = '';
  const limit = options.collectLimit ?? 64 * 1024;
  let finish!: (info: ProcessInfo) => void;
  const ended = new Promise<ProcessInfo>((resolve) => (finish = resolve));

  const handle = (event: DaemonEvent) => {
    if (event.event === 'output' && event.processId === processId) {
      options.onOutput?.(event.data);
      if (!options.onOutput) output = (output + event.data).slice(-limit);
    } else if (event.event === 'change' && event.process.id === processId && event.process.status !== 'running' && event.process.status !== 'starting') {
      finish(event.process);
    }
  };
  const off = client.onEvent((event) => (processId === undefined ? early.push(event) : handle(event)));
  await client.call('proc.subscribe', {id: null});
  try {
    const started = await client.call<ProcessInfo>('proc.start', request);
    processId = started.id;
    options.onStart?.(started);
    for (const event of early.splice(0)) handle(event);
    if (started.status !== 'running') finish(started);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      if (options.timeoutMs) timer = setTimeout(() => resolve(undefined), options.timeoutMs);
    });
    const info = await Promise.race([ended, timeout]);
    clearTimeout(timer);
    if (info) return {info, output, timedOut: false};
    return {info: await client.call<ProcessInfo>('proc.get', {id: processId}), output, timedOut: true};
  } finally {
    off();
    await client.call('proc.unsubscribe', {id: null}).catch(() => undefined);
  }
}
