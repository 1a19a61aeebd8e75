#!/usr/bin/env node
/**
 * Entry point. The full-screen TUI, `workbench mcp` (stdout is the protocol's) and the daemon
 * start here, outside pastel, which renders with ink's defaults to stdout; every other command
 * goes through pastel and the files in commands/.
 */
import process from 'node:process';
import {fileURLToPath} from 'node:url';
import {setCliEntry} from './core/entry.js';
import {VERSION} from './core/version.js';

setCliEntry(fileURLToPath(import.meta.url));

const DESCRIPTION =
  'A terminal workbench for developers: supervised dev servers, one error inbox, MCP tools.\nRun `workbench` with no command for the full-screen TUI, `workbench demo` to try it.';
const [first, second] = process.argv.slice(2);

async function main(): Promise<void> {
  if (first === undefined || first === 'demo' || first === 'tui') {
    const {openTui} = await import('./cli/open-tui.js');
    await openTui({demo: first === 'demo', argv: process.argv.slice(3)});
    return;
  }
  if (first === 'mcp' && !process.argv.slice(3).some((arg) => arg === '--help' || arg === '-h')) {
    const {parseMcpArgs} = await import('./mcp/http/mcp-args.js');
    let args;
    try {
      args = parseMcpArgs(process.argv.slice(3));
    } catch (error) {
      process.stderr.write(`workbench mcp: ${(error as Error).message} (workbench mcp --help)\n`);
      process.exitCode = 2;
      return;
    }
    if (args.http) {
      const {runMcpHttp} = await import('./mcp/http/run-http.js');
      await runMcpHttp(args);
    } else {
      const {runMcpServer} = await import('./mcp/server.js');
      await runMcpServer({noDaemon: args.noDaemon});
    }
    return;
  }
  if (first === 'daemon' && second === 'run') {
    const {runDaemon} = await import('./daemon/run-daemon.js');
    await runDaemon();
    return;
  }
  const commandsDir = new URL('../commands/', import.meta.url);
  const {unknownSubcommand} = await import('./cli/unknown-subcommand.js');
  const unknown = unknownSubcommand(commandsDir, process.argv.slice(2));
  if (unknown) {
    process.stderr.write(`workbench: ${unknown}\n`);
    process.exitCode = 1;
    return;
  }
  // ink measures a piped stdout with terminal-size, which spawns tput (~25 ms); a pipe has no
  // width, so give it ink's own default instead.
  if (!process.stdout.isTTY && !process.stdout.columns) Object.assign(process.stdout, {columns: 80, rows: 24});
  const [{default: Pastel}, {Command}] = await Promise.all([import('pastel'), import('commander')]);
  // A group's own options come before its subcommand, a subcommand's after it: `workbench agent
  // perms test edit x --json` gives --json to `perms test`, not to `agent` (which has one too).
  // pastel builds the groups with commander's addCommand and offers no hook of its own.
  const addCommand = Command.prototype.addCommand;
  Command.prototype.addCommand = function (this: InstanceType<typeof Command>, ...args: Parameters<typeof addCommand>) {
    this.enablePositionalOptions();
    return addCommand.apply(this, args);
  };
  // pastel reads commands/ next to the URL it is given: dist/commands.
  const app = new Pastel({importMeta: {url: new URL('../', import.meta.url).href} as ImportMeta, name: 'workbench', version: VERSION, description: DESCRIPTION});
  await app.run();
}

main().catch(async (error: unknown) => {
  const {describeError, isWorkbenchError} = await import('./core/errors.js');
  process.stderr.write(`workbench: ${describeError(error)}\n`);
  if (!isWorkbenchError(error) && process.env.WORKBENCH_DEBUG) process.stderr.write(`${(error as Error)?.stack}\n`);
  process.exitCode = 1;
});
