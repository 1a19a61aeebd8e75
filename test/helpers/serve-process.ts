import {spawn, type ChildProcess} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {cliPath, eventually} from './cli.js';

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** What it printed so far (for a failing test's message). */
  output(): string;
  /** SIGTERM, and waits for the exit; answers its code. */
  stop(): Promise<number | null>;
}

/**
 * `workbench serve <name> --port 0 …args` from dist, as a user starts it, in `cwd` with its own
 * WORKBENCH_HOME (`home`, in `env`). Ready once it has announced itself in the service registry and
 * its health URL answers.
 */
export async function startServeProcess(options: {name: string; args?: string[]; env: NodeJS.ProcessEnv; home: string; cwd?: string}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [cliPath, 'serve', options.name, '--port', '0', ...(options.args ?? [])], {
    env: options.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  try {
    const url = await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`serve ${options.name} exited ${child.exitCode}: ${output}`);
      const entry = JSON.parse(readFileSync(join(options.home, 'services', `${options.name}.json`), 'utf8')) as {url: string; health: string; pid: number};
      if (entry.pid !== child.pid) return undefined;
      return (await fetch(entry.health)).ok ? entry.url : undefined;
    }, 30_000);
    return {url, child, output: () => output, stop};
  } catch (error) {
    await stop();
    throw new Error(`serve ${options.name} did not start: ${(error as Error).message}\n${output}`, {cause: error});
  }
}
