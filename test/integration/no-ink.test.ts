import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {cliPath, makeSandbox, repoRoot, type Sandbox} from '../helpers/cli.js';

// Text commands must not load ink (~120 ms): scripts/build.mjs swaps pastel's import of ink's
// render for source/cli/pastel-render.ts. A loader hook records every module the built CLI
// resolves; esbuild's metafile (dist/metafile.json) says which sources each bundle file holds.

interface Metafile {
  outputs: Record<string, {inputs: Record<string, unknown>}>;
}

const INK = /node_modules\/(ink|react-reconciler)\//;
let sandbox: Sandbox;
let hooks: string;
let inkFiles: Set<string>;

beforeAll(() => {
  sandbox = makeSandbox('wb-no-ink-');
  hooks = mkdtempSync(join(tmpdir(), 'wb-hooks-'));
  writeFileSync(
    join(hooks, 'hooks.mjs'),
    `import {appendFileSync} from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.WB_LOAD_LOG, result.url + '\\n');
  return result;
}
`,
  );
  writeFileSync(join(hooks, 'register.mjs'), `import {register} from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`);
  const meta = JSON.parse(readFileSync(join(repoRoot, 'dist/metafile.json'), 'utf8')) as Metafile;
  inkFiles = new Set(
    Object.entries(meta.outputs)
      .filter(([, output]) => Object.keys(output.inputs).some((input) => INK.test(input)))
      .map(([file]) => file),
  );
});

afterAll(async () => {
  rmSync(hooks, {recursive: true, force: true});
  await sandbox?.cleanup();
});

/** Runs node with the recording hook; the bundle files (relative to the repo, as in the metafile) it loaded. */
function loadedFiles(args: string[], cwd = repoRoot): {files: string[]; status: number | null; output: string} {
  const log = join(hooks, `load-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(log, '');
  const result = spawnSync(process.execPath, ['--import', pathToFileURL(join(hooks, 'register.mjs')).href, ...args], {
    cwd,
    env: {...sandbox.env, WB_LOAD_LOG: log},
    encoding: 'utf8',
    timeout: 30_000,
  });
  const files = readFileSync(log, 'utf8')
    .split('\n')
    .filter((url) => url.startsWith('file:'))
    .map((url) => relative(repoRoot, fileURLToPath(url)));
  return {files, status: result.status, output: result.stdout + result.stderr};
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
