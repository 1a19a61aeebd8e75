import {execFile} from 'node:child_process';
import {copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {promisify} from 'node:util';
import {afterEach, describe, expect, it} from 'vitest';
import {repoRoot} from '../../helpers/cli.js';

// The import-boundary check of `npm test` (scripts/check-imports.mjs with .dependency-cruiser.cjs),
// run over small trees laid out like the repository's.
const run = promisify(execFile);
let tree: string | undefined;

afterEach(() => {
  if (tree) rmSync(tree, {recursive: true, force: true});
  tree = undefined;
});

async function check(files: Record<string, string>): Promise<{code: number; output: string}> {
  tree = mkdtempSync(join(tmpdir(), 'wb-imports-'));
  copyFileSync(join(repoRoot, '.dependency-cruiser.cjs'), join(tree, '.dependency-cruiser.cjs'));
  writeFileSync(join(tree, 'tsconfig.json'), JSON.stringify({compilerOptions: {module: 'NodeNext', moduleResolution: 'NodeNext', strict: true}}));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), {recursive: true});
    writeFileSync(join(tree, path), text);
  }
  try {
    const {stdout} = await run(process.execPath, [join(repoRoot, 'scripts/check-imports.mjs')], {cwd: tree});
    return {code: 0, output: stdout};
  } catch (error) {
    const failure = error as {code: number; stdout: string; stderr: string};
    return {code: failure.code, output: failure.stdout + failure.stderr};
  }
}

describe('the import-boundary check', () => {
  it('passes a tree where faces import logic and a server imports the kit', async () => {
    const result = await check({
      'source/core/errors.ts': 'export const code = 1;\n',
      'source/feeds/service/index.ts': "import {code} from '../../core/errors.js';\nexport const feeds = code;\n",
      'source/tui/panes/feeds.tsx': "import {feeds} from '../../feeds/service/index.js';\nexport const pane = feeds;\n",
      'servers/kit/create-server.ts': 'export const kit = 1;\n',
      'servers/reader/app.ts': "import {kit} from '../kit/create-server.js';\nimport {feeds} from '../../source/feeds/service/index.js';\nexport const app = kit + feeds;\n",
      'commands/serve/reader.tsx': "import {app} from '../../servers/reader/app.js';\nexport default app;\n",
    });
    expect(result.output).toContain('imports: boundaries hold');
    expect(result.code).toBe(0);
  });

  it('finds two areas importing each other from different subfolders, type-only imports included', async () => {
    const result = await check({
      'source/daemon/server/listen.ts': "import type {Info} from '../../processes/types/info.js';\nexport const listen = (info: Info) => info;\n",
      'source/processes/types/info.ts': 'export interface Info {id: string}\n',
      'source/processes/foreground/run.ts': "import {listen} from '../../daemon/server/listen.js';\nexport const run = listen;\n",
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain('area-cycle: source/daemon → source/processes → source/daemon');
    expect(result.output).toContain('source/daemon/server/listen.ts → source/processes/types/info.ts (type-only)');
  });

  it('refuses logic importing a face, the daemon importing the TUI, and a server importing a command or another server', async () => {
    const result = await check({
      'source/feeds/client/task.ts': "import {render} from '../../cli/command-output.js';\nexport const task = render;\n",
      'source/cli/command-output.ts': 'export const render = 1;\n',
      'source/daemon/backend.ts': "import type {Backend} from '../tui/backend.js';\nexport type B = Backend;\n",
      'source/tui/backend.ts': 'export interface Backend {x: number}\n',
      'servers/gateway/app.ts': "import '../reader/app.js';\nimport '../../commands/run.js';\n",
      'servers/reader/app.ts': 'export {};\n',
      'commands/run.tsx': 'export {};\n',
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain('logic-imports-a-face: source/feeds/client/task.ts → source/cli/command-output.ts');
    expect(result.output).toContain('logic-imports-a-face: source/daemon/backend.ts → source/tui/backend.ts');
    expect(result.output).toContain('server-imports-another-server: servers/gateway/app.ts → servers/reader/app.ts');
    expect(result.output).toContain('server-imports-a-command: servers/gateway/app.ts → commands/run.tsx');
  });
});
