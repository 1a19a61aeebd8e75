import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {cliPath, makeSandbox, repoRoot, type Sandbox} from '../helpers/cli.js';
import {bundleInputs, makeLoadLog, type LoadLog} from '../helpers/load-log.js';

// Text commands must not load ink (~120 ms): scripts/build.mjs swaps pastel's import of ink's
// render for source/cli/pastel-render.ts. A loader hook records every module the built CLI
// resolves; esbuild's metafile (dist/metafile.json) says which sources each bundle file holds.

const INK = /node_modules\/(ink|react-reconciler)\//;
let sandbox: Sandbox;
let loadLog: LoadLog;
let inkFiles: Set<string>;

beforeAll(() => {
  sandbox = makeSandbox('wb-no-ink-');
  loadLog = makeLoadLog();
  inkFiles = new Set([...bundleInputs()].filter(([, inputs]) => inputs.some((input) => INK.test(input))).map(([file]) => file));
});

afterAll(async () => {
  loadLog?.cleanup();
  await sandbox?.cleanup();
});

function loadedFiles(args: string[]): {files: string[]; status: number | null; output: string} {
  return loadLog.run(args, {env: sandbox.env});
}

describe('the built CLI loads ink only for the TUI', () => {
  it('the bundle holds ink in some files, and the hook sees them when they load (the check can fail)', () => {
    expect(inkFiles.size).toBeGreaterThan(0);
    const [inkFile] = [...inkFiles];
    const control = loadedFiles(['-e', `await import(${JSON.stringify(pathToFileURL(join(repoRoot, inkFile!)).href)})`, '--input-type=module']);
    expect(control.files.filter((file) => inkFiles.has(file))).not.toEqual([]);
  });

  it.each([
    ['detect --json', ['detect', '--json']],
    ['get-errors --no-daemon --raw', ['get-errors', '--no-daemon', '--raw']],
    ['--help', ['--help']],
    ['agent perms test read a.ts', ['agent', 'perms', 'test', 'read', 'a.ts']],
  ])('%s does not load ink or react-reconciler', (_name, args) => {
    const run = loadedFiles([cliPath, ...args]);
    expect(run.status, run.output).toBe(0);
    expect(run.files).toContain(relative(repoRoot, cliPath));
    expect(run.files.filter((file) => inkFiles.has(file))).toEqual([]);
  });
});

describe('the version', () => {
  it('is written once, in package.json: --version prints it', () => {
    const {version} = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {version: string};
    const run = spawnSync(process.execPath, [cliPath, '--version'], {env: sandbox.env, encoding: 'utf8', timeout: 30_000});
    expect(run.stdout.trim()).toBe(version);
  });
});
