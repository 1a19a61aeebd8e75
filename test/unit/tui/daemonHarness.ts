import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import type {Server, Socket} from 'node:net';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {vi} from 'vitest';
import {daemonSocketPath} from '../../../source/core/paths.js';
import type {DaemonClient} from '../../../source/daemon/client.js';
import {ensureDaemon} from '../../../source/daemon/lifecycle.js';
import {Inbox} from '../../../source/daemon/inbox.js';
import {createDaemonServer} from '../../../source/daemon/server.js';
import {createProxyManager} from '../../../source/devproxy/create-manager.js';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import type {GqlService} from '../../../source/gql/types.js';
import {makeKey} from '../../../source/processes/project-key.js';
import {Supervisor} from '../../../source/processes/supervisor.js';
import {projectRoot} from '../../../source/project/project-root.js';
import type {ProcessInfo} from '../../../source/processes/types.js';
import type {ToolContext} from '../../../source/tools/registry-types.js';
import {runTask} from '../../../source/tools/run.js';
import {createPorts, type TuiPorts} from '../../../source/tui/ports/index.js';
import type {ChatOpeners} from '../../../source/tui/ports/chat.js';

/**
 * The real daemon in this process: its socket server and a Supervisor running real ptys, under a
 * private WORKBENCH_HOME, with a project folder of small scripts. The TUI's ports talk to it over
 * the socket exactly as `workbench` does; only the autostart is off, so a test that takes the
 * daemon away sees the failure instead of a daemon spawned from dist/.
 */
export interface InProcessDaemon {
  dir: string;
  home: string;
  /** The project the ports look at (package.json scripts `dev` and `test`). */
  project: string;
  context: ToolContext;
  ports: TuiPorts;
  supervisor: Supervisor;
  /** The supervisor's key of a process of the project (`<project root>#<id>`). */
  key(id: string): string;
  /** Starts a shell command in the daemon, as `workbench run --cmd` does. */
  run(cmd: string, id: string): Promise<ProcessInfo>;
  /** How many connections the daemon has accepted so far. */
  connectionsAccepted(): number;
  /** Closes the socket and every connection: clients see the daemon gone. */
  takeDown(): Promise<void>;
  /** Listens again on the same socket with the same supervisor. */
  bringBack(): Promise<void>;
  close(): Promise<void>;
}

/** Project scripts the tests start: each prints what a dev tool prints, then waits or ends. */
const SCRIPTS: Record<string, string> = {
  // A dev server: colours, a progress line redrawn with \r and erase-line, a title escape, a long line.
  'web.mjs': `
process.stdout.write([
  '\\u001b[36m> demo@1.0.0 dev\\u001b[39m',
  '\\u001b[2K\\rbuilding 10%\\rbuilding 55%\\r\\u001b[2K\\rbuilding done',
  '\\u001b[32m✓ compiled\\u001b[39m in 312ms',
  'GET /api/items ' + 'x'.repeat(300) + ' END-OF-LONG-LINE',
  '\\u001b]0;window title\\u0007ready on http://localhost:3000',
  '',
].join('\\r\\n'));
setInterval(() => {}, 1000);
`,
  // A worker that logs an uncaught TypeError and dies by a signal.
  'worker.mjs': `
console.log('worker starting');
console.error("TypeError: Cannot read properties of undefined (reading 'id')\\n    at run (/work/demo/worker.js:12:7)");
setTimeout(() => process.kill(process.pid, 'SIGKILL'), 300);
`,
  'build.mjs': `console.log('done');`,
  'tests.mjs': `console.log('RUN  v4.1.0 ' + process.cwd()); setInterval(() => {}, 1000);`,
};

export async function startInProcessDaemon(
  options: {openReader?: () => Promise<ReaderService>; feedsPollMs?: number; openGqlInProcess?: () => Promise<GqlService>; chatOpeners?: ChatOpeners} = {},
): Promise<InProcessDaemon> {
  const dir = mkdtempSync(join(tmpdir(), 'wb-tui-'));
  const home = join(dir, 'home');
  const project = join(dir, 'demo');
  mkdirSync(home, {recursive: true, mode: 0o700});
  mkdirSync(project);
  for (const [name, text] of Object.entries(SCRIPTS)) writeFileSync(join(project, name), text);
  writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'demo', private: true, scripts: {dev: 'node web.mjs', test: 'node tests.mjs'}}, null, 2));
  vi.stubEnv('WORKBENCH_HOME', home);
  vi.stubEnv('XDG_CONFIG_HOME', join(dir, 'config'));
  vi.stubEnv('XDG_RUNTIME_DIR', join(dir, 'run'));
  vi.stubEnv('WORKBENCH_READER_URL', '');

  const supervisor = new Supervisor();
  const proxies = createProxyManager();
  const inbox = new Inbox(supervisor, proxies);
  const socketPath = daemonSocketPath(home);
  mkdirSync(dirname(socketPath), {recursive: true, mode: 0o700});
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  let accepted = 0;
  const listen = async () => {
    server = createDaemonServer(supervisor, {proxies, inbox, startedAt: Date.now(), survivors: () => [], shutdown: () => undefined});
    server.on('connection', (socket) => {
      accepted++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(socketPath, () => resolve());
    });
  };
  const takeDown = async () => {
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
    server = undefined;
  };
  await listen();

  // createToolContext's daemon(), without the autostart.
  let connection: Promise<DaemonClient> | undefined;
  const clients: DaemonClient[] = [];
  const context: ToolContext = {
    cwd: project,
    noDaemon: false,
    daemon() {
      connection ??= ensureDaemon({autostart: false}).then(({client}) => {
        // As createToolContext: the client works in the context's project.
        client.project = projectRoot(project);
        clients.push(client);
        client.closedPromise().then(() => (connection = undefined));
        return client;
      });
      connection.catch(() => (connection = undefined));
      return connection;
    },
  };
  const ports = createPorts(context, {
    retryMs: 20,
    feedsPollMs: options.feedsPollMs ?? 50,
    openReader: options.openReader,
    openGqlInProcess: options.openGqlInProcess,
    chatOpeners: options.chatOpeners,
  });

  return {
    dir,
    home,
    project,
    context,
    ports,
    supervisor,
    key: (id) => makeKey(projectRoot(project), id),
    run: async (cmd, id) => (await runTask({cmd, id}, context)).process,
    connectionsAccepted: () => accepted,
    takeDown,
    bringBack: listen,
    async close() {
      await ports.close().catch(() => undefined);
      for (const client of clients) client.close();
      await Promise.all([supervisor.stopAll(), proxies.stopAll()]);
      inbox.close();
      await takeDown();
      vi.unstubAllEnvs();
      rmSync(dir, {recursive: true, force: true});
    },
  };
}
