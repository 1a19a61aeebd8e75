import {createServer} from 'node:net';
import {cliEntry} from '../core/entry.js';
import {workbenchHome} from '../core/paths.js';
import type {DaemonClient} from '../daemon/client.js';
import {homeProject} from '../project/project-root.js';

const READER_ID = 'reader';
/** The reader's port when free: a shared list's RSS URL stays the same from one start to the next. */
export const READER_PORT = 7700;
// How far past the preferred port to look before letting the system choose.
const PORTS_TRIED = 20;

export interface EnsureReaderOptions {
  timeoutMs?: number;
  /** Default READER_PORT; the next free one above it when taken. */
  preferredPort?: number;
}

/**
 * The TUI's Feeds pane wants a reader that polls while nobody watches: unless one already runs,
 * the daemon starts `workbench serve reader` as the process `reader` on port 7700 (or the next
 * free one: the service registry tells every client where), and this waits until it answers. The
 * port is written into the command, so `proc restart reader` comes back where it was. Two
 * workbenches starting at once can both find a port free: the reader is told `--next-free`, so
 * the one that loses the bind takes the next port itself, at the bind, however late it gets there.
 */
export async function ensureReaderServer(client: DaemonClient, options: EnsureReaderOptions = {}): Promise<string | undefined> {
  const {findService} = await import('../services/registry.js');
  const runningServer = async () => (await findService('reader'))?.url;
  const running = await runningServer();
  if (running) return running;
  const deadline = Date.now() + (options.timeoutMs ?? 5000);
  // The reader is the home's, not the project's the TUI opened in: it lives in the home's project, which every project sees.
  const home = homeProject();
  const processes = (await client.call('proc.list', {project: home})).filter((info) => info.project === home);
  if (!processes.some((info) => info.id === READER_ID && (info.status === 'running' || info.status === 'starting'))) {
    const port = await firstFreePort(options.preferredPort ?? READER_PORT);
    const command = `${quote(process.execPath)} ${quote(cliEntry())} serve reader --port ${port} --next-free`;
    if (processes.some((info) => info.id === READER_ID)) await client.call('proc.remove', {id: READER_ID, project: home}).catch(() => undefined);
    await client.call('proc.start', {cmd: command, id: READER_ID, cwd: workbenchHome(), project: home});
  }
  while (Date.now() < deadline) {
    const url = await runningServer();
    if (url) return url;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

/** The first port from `preferred` that 127.0.0.1 can listen on; 0 (any) when the few after it are taken too. */
export async function firstFreePort(preferred: number): Promise<number> {
  for (let port = preferred; port < Math.min(65536, preferred + PORTS_TRIED); port++) if (await canListen(port)) return port;
  return 0;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({port, host: '127.0.0.1', exclusive: true}, () => server.close(() => resolve(true)));
  });
}

function quote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
