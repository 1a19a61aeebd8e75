import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {installRoot} from '../core/entry.js';
import {WorkbenchError} from '../core/errors.js';
import {autostartProject} from '../tools/autostart.js';
import {loadProjectConfig} from '../project/config.js';
import {createPorts} from '../tui/ports/index.js';
import {createTuiContext} from '../tui/ports/tuiContext.js';
import type {DaemonClient} from '../daemon/client.js';
import {inProcessConnection, type GqlConnection} from '../tui/ports/graphql.js';

/** The bundled demo project (fixtures/demo). */
export function demoProjectPath(): string {
  const path = join(installRoot(), 'fixtures', 'demo');
  if (existsSync(join(path, '.workbench.kdl'))) return path;
  throw new WorkbenchError('not_found', `the demo project is missing from this installation (looked in ${path})`);
}

/** The demo's GraphQL service: in-process, over its Chinook sample (made on first use). */
export async function openDemoGraphql(): Promise<GqlConnection> {
  const [{demoSampleSettings}, {openGqlService}] = await Promise.all([import('../gql/sample/demo-sample.js'), import('../gql/service.js')]);
  return inProcessConnection(await openGqlService(await demoSampleSettings()));
}

/**
 * ink decides once, when it loads, that a CI environment gets only a final frame; a person at a
 * terminal with CI set (a CI shell, a test under tmux) still wants the live screen.
 */
async function importTuiInteractive() {
  const keys = ['CI', 'CONTINUOUS_INTEGRATION'];
  const saved = keys.map((key) => process.env[key]);
  for (const key of keys) if (process.env[key] !== undefined) process.env[key] = 'false';
  try {
    return await import('../tui/run.js');
  } finally {
    keys.forEach((key, index) => {
      if (saved[index] === undefined) delete process.env[key];
      else process.env[key] = saved[index];
    });
  }
}

/** `workbench` and `workbench demo`: start the project's autostart scripts, then the full-screen TUI. */
export async function openTui(options: {demo: boolean; argv: string[]}): Promise<void> {
  if (options.argv.includes('--help') || options.argv.includes('-h')) {
    process.stdout.write('usage: workbench [demo]\n\nOpens the full-screen TUI (processes, incidents). `workbench --help` lists every command.\n');
    return;
  }
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    throw new WorkbenchError('invalid_argument', 'the TUI needs a terminal; for scripts use the commands in `workbench --help` (e.g. workbench get-errors --raw)');
  }
  const root = options.demo ? demoProjectPath() : process.cwd();
  // A malformed .workbench.kdl stops us here, before anything starts.
  await loadProjectConfig(root);
  const notices: string[] = [];
  // The project's autostart scripts and the Feeds pane's reader (it polls in the daemon's `reader`
  // process, not in this window): at the start, and again when `r` starts a stopped daemon.
  const {ensureReaderServer} = await import('./ensure-reader.js');
  const startProject = async (client: DaemonClient) => {
    const report = await autostartProject(root, client);
    for (const failure of report.failed) notices.push(`workbench: autostart failed: ${failure}`);
    await ensureReaderServer(client).catch((error) => notices.push(`workbench: the feed reader did not start (${(error as Error).message}); the Feeds pane reads the local store`));
    return report;
  };
  const context = createTuiContext({cwd: root, notice: (message) => notices.push(message), afterStart: async (client) => void (await startProject(client))});
  const report = await startProject(await context.daemon());
  const {runTui} = await importTuiInteractive();
  const title = options.demo ? 'workbench demo' : 'workbench';
  // The demo's GraphQL pane answers from a Chinook sample of its own, whatever else runs.
  const ports = createPorts(context, {startDaemon: async () => void (await context.startDaemon()), ...(options.demo ? {openGraphql: openDemoGraphql} : {})});
  await runTui(ports, {title});
  await ports.close().catch(() => undefined);
  context.close();
  const names = [...report.started, ...report.proxies.map((proxy) => `proxy ${proxy.id}`)];
  const started = names.length ? ` Started ${names.join(', ')}; they keep running in the daemon (workbench proc list, workbench proxy list).` : '';
  process.stdout.write(`${notices.join('\n')}${notices.length ? '\n' : ''}Bye.${started}\n`);
  process.exit(0);
}
