import {spawn, type ChildProcess} from 'node:child_process';
import {accessSync, constants, mkdirSync, renameSync, writeFileSync} from 'node:fs';
import {delimiter, join} from 'node:path';
import {WorkbenchError} from '../../../source/core/errors.js';
import {caddyConfig, type FrontConfig} from './caddy-config.js';

/** The caddy binary: `WORKBENCH_CADDY`, else `caddy` on PATH; undefined when there is none. */
export function findCaddy(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = env.WORKBENCH_CADDY ? [env.WORKBENCH_CADDY] : (env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'caddy'));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return undefined;
}

/** What Caddy logs once every listener of its config is bound (a port taken makes it exit instead). */
const READY = 'serving initial configuration';

/** Caddy's JSON log lines: the message of the last error it wrote, for a one-line reason. */
function lastError(log: string): string | undefined {
  const lines = log.trim().split('\n').reverse();
  for (const line of lines) {
    try {
      const entry = JSON.parse(line) as {level?: string; msg?: string; error?: string};
      if (entry.level === 'error' || entry.level === 'fatal' || entry.error) return [entry.msg, entry.error].filter(Boolean).join(': ');
    } catch {
      if (line.trim()) return line.trim();
    }
  }
  return undefined;
}

export interface CaddyProcess {
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Runs Caddy with the front's config (written into `dir`), its HOME and XDG dirs inside `dir` too,
 * and waits until it says it serves the config (every listener bound). Caddy that exits first (a port taken, a bad certificate)
 * is a WorkbenchError with Caddy's own reason. `stop` ends it (SIGTERM, then SIGKILL after 3 s).
 */
export async function startCaddy(binary: string, config: FrontConfig, dir: string, onExit: (reason: string) => void): Promise<CaddyProcess> {
  mkdirSync(dir, {recursive: true, mode: 0o700});
  const file = join(dir, 'caddy.json');
  writeFileSync(`${file}.tmp`, JSON.stringify(caddyConfig(config), null, 2), {mode: 0o600});
  renameSync(`${file}.tmp`, file);
  const env = {...process.env, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config')};
  const child = spawn(binary, ['run', '--config', file], {env, stdio: ['ignore', 'ignore', 'pipe']});
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000);
  });
  let exited: string | undefined;
  let stopping = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = `caddy exited (${signal ?? `code ${code}`})${lastError(log) ? `: ${lastError(log)}` : ''}`;
      if (!stopping) onExit(exited);
      resolve();
    });
    child.once('error', (error) => {
      exited = `caddy could not start: ${error.message}`;
      resolve();
    });
  });
  const deadline = Date.now() + 15_000;
  while (!log.includes(READY)) {
    if (exited !== undefined) throw new WorkbenchError('config_invalid', exited);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new WorkbenchError(
        'config_invalid',
        `caddy did not start serving on port ${config.port} (${config.hosts.join(', ')}) within 15 s${lastError(log) ? `: ${lastError(log)}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    async stop() {
      if (exited !== undefined) return;
      stopping = true;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exit;
      clearTimeout(timer);
    },
  };
}
