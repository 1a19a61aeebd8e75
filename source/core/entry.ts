import {existsSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

let entry: string | undefined;

/** Called by the CLI entry point with its own path, so the daemon can be re-entered from a bundle chunk. */
export function setCliEntry(path: string): void {
  entry = path;
}

/** The root of this installation: the nearest folder upwards that holds the bundled demo fixtures and package.json. */
export function installRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'fixtures'))) return dir;
    dir = dirname(dir);
  }
  return dirname(dirname(fileURLToPath(import.meta.url)));
}

/** The CLI that `daemon run` re-enters in a detached child. */
export function cliEntry(): string {
  return process.env.WORKBENCH_CLI ?? entry ?? join(installRoot(), 'dist/source/cli.js');
}
