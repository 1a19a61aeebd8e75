import {cliEntry} from '../core/entry.js';
import {workbenchHome} from '../core/paths.js';
import type {DaemonClient} from '../daemon/client.js';

const READER_ID = 'reader';

/**
 * The TUI's Feeds pane wants a reader that polls while nobody watches: unless one already runs,
 * the daemon starts `workbench serve reader` as the process `reader` (on a free port; the service
 * registry tells every client where), and this waits until it answers.
 */
export async function ensureReaderServer(client: DaemonClient, timeoutMs = 5000): Promise<string | undefined> {
  const {findService} = await import('../services/registry.js');
  const runningServer = async () => (await findService('reader'))?.url;
  const running = await runningServer();
  if (running) return running;
  const processes = await client.call('proc.list');
  if (!processes.some((info) => info.id === READER_ID && info.status === 'running')) {
    const command = `${quote(process.execPath)} ${quote(cliEntry())} serve reader --port 0`;
    await client.call('proc.start', {cmd: command, id: READER_ID, cwd: workbenchHome()});
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const url = await runningServer();
    if (url) return url;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

function quote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
