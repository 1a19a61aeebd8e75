import {connect} from 'node:net';
import {setTimeout as sleep} from 'node:timers/promises';
import {WorkbenchError} from '../core/errors.js';
import type {DaemonClient} from '../daemon/client.js';
import {describeStatus} from '../processes/describe.js';
import type {ProcessInfo} from '../processes/types.js';
import {stripAnsi} from '../text/ansi.js';
import {toTerminalLine} from '../text/terminal-safe.js';
import {cancelledError, tickSeconds} from './call-progress.js';
import type {ToolCall} from './registry-types.js';

const POLL_MS = 200;

/** Whether 127.0.0.1:`port` takes a TCP connection now. */
export function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({host: '127.0.0.1', port});
    socket.setTimeout(1000);
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/**
 * Waits until the process `info` (just started) listens: 127.0.0.1:`port` accepts a connection.
 * Fails when the process ends first (with the end of its output) or after `timeoutMs` (it keeps
 * running); a cancelled call stops the process — its id never reached the caller — and throws.
 * Returns the seconds it took.
 */
export async function waitForPort(client: DaemonClient, info: ProcessInfo, port: number, options: {timeoutMs: number; call?: ToolCall}): Promise<number> {
  const started = Date.now();
  const stopTicks = options.call ? tickSeconds(options.call, (seconds) => `waiting for port ${port}, ${seconds}s`) : () => undefined;
  try {
    for (;;) {
      if (options.call?.signal.aborted) {
        await client.call('proc.stop', {id: info.id}).catch(() => undefined);
        throw cancelledError();
      }
      if (await portAccepts(port)) return (Date.now() - started) / 1000;
      const now = await client.call('proc.get', {id: info.id});
      if (now.status !== 'running' && now.status !== 'starting') throw await endedFirst(client, now, port);
      if (Date.now() - started >= options.timeoutMs)
        throw new WorkbenchError(
          'request_timeout',
          `${info.id} did not listen on port ${port} within ${Math.round(options.timeoutMs / 1000)} s; it is still running (proc output ${info.id}, or proc stop ${info.id}); raise timeout_seconds if it is slow`,
        );
      await sleep(POLL_MS, undefined, {signal: options.call?.signal}).catch(() => undefined);
    }
  } finally {
    stopTicks();
  }
}

async function endedFirst(client: DaemonClient, info: ProcessInfo, port: number): Promise<WorkbenchError> {
  const {output} = await client.call('proc.output', {id: info.id, tail: 5}).catch(() => ({output: ''}));
  const tail = stripAnsi(output)
    .split('\n')
    .map((line) => toTerminalLine(line).trim())
    .filter(Boolean)
    .join(' | ');
  return new WorkbenchError('conflict', `${info.id} ${describeStatus(info)} before it listened on port ${port}${tail ? `; its last output: ${tail.slice(-600)}` : ''}`);
}
