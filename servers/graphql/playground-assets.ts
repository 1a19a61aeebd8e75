import {existsSync, readFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** The playground's bundled script and stylesheet (scripts/playground.mjs). */
export interface PlaygroundAssets {
  js: string | Buffer;
  css: string | Buffer;
}

/**
 * The assets the build wrote to `dist/playground/` of this package, found from wherever this
 * module runs (a dist chunk, or the source under vitest); undefined when there is no build.
 */
export function builtPlaygroundAssets(from = fileURLToPath(import.meta.url)): PlaygroundAssets | undefined {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const folder = join(dir, 'dist', 'playground');
    if (existsSync(join(dir, 'package.json')) && existsSync(join(folder, 'graphiql.js'))) {
      return {js: readFileSync(join(folder, 'graphiql.js')), css: readFileSync(join(folder, 'graphiql.css'))};
    }
    if (dirname(dir) === dir) return undefined;
  }
}
