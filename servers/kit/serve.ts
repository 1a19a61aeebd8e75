import type {FastifyInstance} from 'fastify';
import {describeError, WorkbenchError} from '../../source/core/errors.js';
import {announceService, withdrawService} from '../../source/services/registry.js';
import type {AtomicWriteOptions} from '../../source/core/atomic-write.js';

// How far past a taken port `nextFree` looks.
const NEXT_FREE_TRIES = 20;

/**
 * Listens and answers the base URL this machine reaches it at (`http://127.0.0.1:7700`); a port in
 * use or a foreign address is one clear error. With `nextFree`, a taken port gives way to the next
 * free one above it, found by listening itself: no other start can take it between a look and the bind.
 */
export async function listen(app: FastifyInstance, host: string, port: number, options: {nextFree?: boolean} = {}): Promise<string> {
  for (let candidate = port; ; candidate++) {
    try {
      await app.listen({host, port: candidate});
      break;
    } catch (error) {
      const taken = (error as NodeJS.ErrnoException)?.code === 'EADDRINUSE';
      if (taken && options.nextFree && port !== 0 && candidate < Math.min(65535, port + NEXT_FREE_TRIES - 1)) continue;
      throw listenError(error, host, candidate);
    }
  }
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  // A wildcard address is no place to connect to: this machine reaches the server on loopback.
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${boundPort}`;
}

function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE') return new WorkbenchError('conflict', `${host}:${port} is in use (another server?); choose another --port`);
  if (code === 'EACCES') return new WorkbenchError('invalid_argument', `not allowed to listen on ${host}:${port}; choose a port above 1023`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new WorkbenchError('invalid_argument', `--host: ${host} is no address of this machine`);
  return error;
}

/** A server listening over its service (servers/<name>/start-server.ts). */
export interface Serving<S> {
  url: string;
  app: FastifyInstance;
  service: S;
  /** Stops what `beforeClose` names, the listener (requests in flight finish), then the service; once. */
  close(): Promise<void>;
}

/**
 * Builds the app and listens; a start that fails closes the app and, when the service was opened
 * for this server (`ownsService`, the default), the service too, so nothing is left open.
 */
export async function listenOver<S extends {close(): Promise<void>}>(options: {
  name: string;
  service: S;
  host: string;
  port: number;
  build: () => FastifyInstance;
  /** A taken port gives way to the next free one above it (listen()). */
  nextFree?: boolean;
  ownsService?: boolean;
  beforeClose?: () => Promise<unknown> | undefined;
}): Promise<Serving<S>> {
  let app: FastifyInstance | undefined;
  let url: string;
  try {
    app = options.build();
    url = await listen(app, options.host, options.port, {nextFree: options.nextFree});
  } catch (error) {
    await app?.close().catch(() => {});
    if (options.ownsService !== false) await options.service.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const listening = app;
  return {
    url,
    app: listening,
    service: options.service,
    close() {
      closing ??= (async () => {
        await options.beforeClose?.();
        await listening.close();
        await options.service.close();
      })().catch((error: unknown) => {
        throw new Error(`closing the ${options.name} failed: ${describeError(error)}`);
      });
      return closing;
    },
  };
}

/** Whether only this machine can reach an address. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare) || bare === '::ffff:127.0.0.1';
}

/** A server that listens. */
export interface Running {
  url: string;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** The registry name: `WORKBENCH_HOME/services/<name>.json`. */
  name: string;
  host: string;
  /** Opens what the server needs and listens. */
  start: () => Promise<Running>;
  /** The path under the URL that answers 200 while the server is up. */
  healthPath: string;
  logFile?: string;
  /** More fields for the registry entry. */
  details?: Record<string, unknown>;
  /** Resolves with why to stop; default the first SIGINT or SIGTERM. */
  stop?: Promise<string>;
  /** Where announcements go (default the process's stdout and stderr). */
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** For tests: how the registry entry's bytes are written. */
  writeBytes?: AtomicWriteOptions['writeBytes'];
}

/**
 * Runs a server in the foreground the one way every workbench server runs: warns when the address
 * is not loopback (the APIs have no authentication), starts it, announces it in the service
 * registry, says `<name> listening on <url>`, and on SIGINT/SIGTERM closes it and takes the
 * announcement back. Answers why it stopped. A failed announcement closes the server again.
 */
export async function serve(options: ServeOptions): Promise<string> {
  const stdout = options.stdout ?? ((text) => process.stdout.write(text));
  const stderr = options.stderr ?? ((text) => process.stderr.write(text));
  if (!isLoopback(options.host)) {
    stderr(
      `warning: ${options.name} listens on ${options.host}, which other machines may reach; its API has no authentication, so anyone who reaches it can read and change your data\n`,
    );
  }
  const stop = options.stop ?? stopSignal();
  const server = await options.start();
  try {
    announceService(
      {name: options.name, url: server.url, health: `${server.url}${options.healthPath}`, log: options.logFile, ...options.details},
      {writeBytes: options.writeBytes},
    );
  } catch (error) {
    await server.close().catch(() => {});
    throw error;
  }
  stdout(`${options.name} listening on ${server.url}\n`);
  if (options.logFile) stderr(`requests are logged to ${options.logFile}\n`);
  const reason = await stop;
  // A second Ctrl-C while closing means "now".
  const now = () => process.exit(130);
  process.once('SIGINT', now);
  try {
    await server.close();
  } catch (error) {
    throw new WorkbenchError('internal', `closing the ${options.name} failed: ${describeError(error)}`);
  } finally {
    withdrawService(options.name);
    process.off('SIGINT', now);
  }
  return reason;
}

function stopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.once('SIGINT', on);
    process.once('SIGTERM', on);
  });
}
