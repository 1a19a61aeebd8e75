import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {repoRoot} from './cli.js';

/**
 * Which files a node process loads: a loader hook records every module it resolves. With
 * esbuild's metafile (dist/metafile.json, written by scripts/build.mjs) the bundle files name the
 * sources they hold.
 */
export interface LoadLog {
  /** Runs node with the recording hook; the files it loaded, relative to the repo (as in the metafile). */
  run(args: string[], options: {env: NodeJS.ProcessEnv; cwd?: string}): {files: string[]; status: number | null; output: string; stdout: string};
  cleanup(): void;
}

export function makeLoadLog(): LoadLog {
  const hooks = mkdtempSync(join(tmpdir(), 'wb-hooks-'));
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
  return {
    run(args, {env, cwd = repoRoot}) {
      const log = join(hooks, `load-${Math.random().toString(36).slice(2)}.log`);
      writeFileSync(log, '');
      const result = spawnSync(process.execPath, ['--import', pathToFileURL(join(hooks, 'register.mjs')).href, ...args], {
        cwd,
        env: {...env, WB_LOAD_LOG: log},
        encoding: 'utf8',
        timeout: 30_000,
      });
      const files = readFileSync(log, 'utf8')
        .split('\n')
        .filter((url) => url.startsWith('file:'))
        .map((url) => relative(repoRoot, fileURLToPath(url)));
      return {files, status: result.status, output: result.stdout + result.stderr, stdout: result.stdout};
    },
    cleanup() {
      rmSync(hooks, {recursive: true, force: true});
    },
  };
}

interface Metafile {
  outputs: Record<string, {inputs: Record<string, unknown>}>;
}

/** The bundle's files, each with the sources it holds (paths relative to the repo, node_modules/… for packages). */
export function bundleInputs(): Map<string, string[]> {
  const meta = JSON.parse(readFileSync(join(repoRoot, 'dist/metafile.json'), 'utf8')) as Metafile;
  return new Map(
    Object.entries(meta.outputs).map(([file, output]) => [
      file,
      Object.keys(output.inputs).map((input) => (input.includes('node_modules/') ? 'node_modules/' + input.split('node_modules/').pop() : input)),
    ]),
  );
}
