// A NATS server of the test's own (never the machine's on 4222): /usr/sbin/nats-server with
// JetStream on a free port and a store directory the test owns, stopped and restarted at will.
import {spawn, type ChildProcess} from 'node:child_process';
import {requirePackage} from './system-package.js';
import net from 'node:net';

export const NATS_SERVER = '/usr/sbin/nats-server';

/** Null when the server can run here; else why not (skipped loudly, or a failure under WORKBENCH_REQUIRE_SERVICES). */
export function natsServerMissing(): string | null {
  return requirePackage('nats-server', {for: 'the NATS JetStream tests'});
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface NatsServer {
  port: number;
  url: string;
  process: ChildProcess;
  /** Sends `signal` and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the server and waits until it accepts connections (bounded). */
export async function startNatsServer(port: number, storeDir: string): Promise<NatsServer> {
  const child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {stdio: ['ignore', 'ignore', 'pipe']});
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 15_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nats-server on ${port} did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    url: `nats://127.0.0.1:${port}`,
    process: child,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
