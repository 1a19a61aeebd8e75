import {relative} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {cliPath, makeSandbox, repoRoot, runCli, type Sandbox} from '../helpers/cli.js';
import {bundleInputs, makeLoadLog, type LoadLog} from '../helpers/load-log.js';

// What the built CLI loads on its way to one command (issue 25): only that command of commands/
// (source/cli/pastel-read-commands.ts), only its tool (source/tools/load-tool.ts), the daemon's
// client without the daemon (run-daemon.ts), and zod without its other languages (scripts/build.mjs).
// Seen through the sources each loaded bundle file holds (dist/metafile.json).

let sandbox: Sandbox;
let loadLog: LoadLog;
let inputs: Map<string, string[]>;

beforeAll(async () => {
  sandbox = makeSandbox('wb-start-path-');
  loadLog = makeLoadLog();
  inputs = bundleInputs();
  const started = await runCli(['daemon', 'start'], {env: sandbox.env});
  expect(started.code, started.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  loadLog?.cleanup();
  await sandbox?.cleanup();
});

/** Runs the built CLI; the sources of every bundle file it loaded. */
function loadedSources(args: string[]): {sources: string[]; status: number | null; output: string; stdout: string} {
  const run = loadLog.run([cliPath, ...args], {env: sandbox.env});
  expect(run.files).toContain(relative(repoRoot, cliPath));
  return {...run, sources: run.files.flatMap((file) => inputs.get(file) ?? [])};
}

const commandsOf = (sources: string[]) => sources.filter((source) => source.startsWith('commands/')).sort();

describe('the built CLI loads what the command line reaches', () => {
  it('a word that names no command loads every command, as pastel does (the checks below can fail)', () => {
    const run = loadedSources(['help']);
    expect(run.status, run.output).toBe(0);
    expect(commandsOf(run.sources)).toEqual(
      expect.arrayContaining(['commands/get-errors.tsx', 'commands/proc/index.tsx', 'commands/proc/stop.tsx', 'commands/gql/events/list.tsx']),
    );
  });

  it('get-errors --raw, with the daemon running: its own command and tool, the daemon client, English zod', () => {
    const run = loadedSources(['get-errors', '--raw']);
    expect(run.status, run.output).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([]);
    expect(commandsOf(run.sources)).toEqual(['commands/get-errors.tsx']);
    expect(run.sources).toContain('source/tools/get-errors.ts');
    expect(run.sources).toContain('source/daemon/client.ts');
    expect(run.sources).toContain('node_modules/zod/v4/locales/en.js');
    const unneeded = run.sources.filter(
      (source) =>
        /^source\/tools\/(registry|proc|run|proxy|proxylog|currentpage|detect|snapshot|get-incidents)\.ts$/.test(source) ||
        /^source\/(daemon\/(run-daemon|server)\.ts|processes\/|devproxy\/|incidents\/(query|collect|normalize)\.ts)/.test(source) ||
        /^node_modules\/zod\/v4\/locales\/(?!en\.js)/.test(source) ||
        /^node_modules\/(ink|react-reconciler|entities|ws|prom-client|re2js)\//.test(source),
    );
    expect(unneeded).toEqual([]);
  });

  it('--help loads each top-level command and each group’s index, not the subcommands help does not list', () => {
    const run = loadedSources(['--help']);
    expect(run.status, run.output).toBe(0);
    const commands = commandsOf(run.sources);
    expect(commands).toEqual(expect.arrayContaining(['commands/get-errors.tsx', 'commands/proc/index.tsx', 'commands/feeds/index.tsx', 'commands/gql/index.tsx']));
    // (An index may import its default subcommand, such as proc list.)
    expect(commands.filter((command) => ['commands/proc/stop.tsx', 'commands/feeds/add.tsx', 'commands/gql/events/replay.tsx'].includes(command))).toEqual([]);
  });

  it('proc --help loads proc’s commands and no other group’s', () => {
    const run = loadedSources(['proc', '--help']);
    expect(run.status, run.output).toBe(0);
    const commands = commandsOf(run.sources);
    expect(commands).toEqual(expect.arrayContaining(['commands/proc/index.tsx', 'commands/proc/stop.tsx']));
    expect(commands.filter((command) => !command.startsWith('commands/proc/'))).toEqual([]);
  });
});

describe('help loaded in part reads as help of the whole tree', () => {
  // `help <command>` names no command at the top, so it loads every command; `<command> --help` loads its part.
  it.each([[[]], [['get-errors']], [['proc']], [['agent']], [['gql']]])('%j: `<words> --help` prints what `help <words>` prints', async (words) => {
    const [part, whole] = await Promise.all([runCli([...words, '--help'], {env: sandbox.env}), runCli(['help', ...words], {env: sandbox.env})]);
    expect(part.code).toBe(0);
    expect(part.stdout).toContain('Usage: workbench');
    expect({stdout: part.stdout, stderr: part.stderr, code: part.code}).toEqual({stdout: whole.stdout, stderr: whole.stderr, code: whole.code});
  });
});
