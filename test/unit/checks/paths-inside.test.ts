import {execFile} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {promisify} from 'node:util';
import {afterEach, describe, expect, it} from 'vitest';
import {repoRoot} from '../../helpers/cli.js';

// The paths check of `npm test` (scripts/check-paths.mjs): nothing reads or links outside the
// repository. Run over the repository itself and over small trees that break the rule.
const run = promisify(execFile);
let tree: string | undefined;

afterEach(() => {
  if (tree) rmSync(tree, {recursive: true, force: true});
  tree = undefined;
});

async function check(cwd: string): Promise<{code: number; output: string}> {
  try {
    const {stdout} = await run(process.execPath, [join(repoRoot, 'scripts/check-paths.mjs')], {cwd});
    return {code: 0, output: stdout};
  } catch (error) {
    const failure = error as {code: number; stdout: string};
    return {code: failure.code, output: failure.stdout};
  }
}

function layTree(files: Record<string, string>): string {
  tree = mkdtempSync(join(tmpdir(), 'wb-paths-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), {recursive: true});
    writeFileSync(join(tree, path), text);
  }
  return tree;
}

describe('the paths check', () => {
  it('passes on the repository itself', async () => {
    const result = await check(repoRoot);
    expect(result.output).toContain('everything the repository reads lies inside it');
    expect(result.code).toBe(0);
  });

  it('names a test that reads the folder beside the work tree', async () => {
    // Spelt in pieces so that this file itself does not trip the check.
    const beside = ['sha', 'red'].join('');
    const root = layTree({'test/unit/a.test.ts': `const dir = join(root, '..', '${beside}', 'data', 'chinook');\n`});
    const result = await check(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain('test/unit/a.test.ts:1: names the shared folder');
  });

  it('names a URL or __dirname path that climbs above the root, and a Markdown link that does', async () => {
    const root = layTree({
      'fixtures/origin/server.mjs': "const data = new URL('../../../corpus/', import.meta.url);\nconst ok = new URL('../feeds/', import.meta.url);\n",
      'bench/a.mjs': "const x = path.resolve(__dirname, '../..', 'elsewhere');\n",
      'README.md': 'See [the map](../design/MAP.md) and [ours](docs/MAP.md).\n',
    });
    const result = await check(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain("fixtures/origin/server.mjs:1: new URL('../../../corpus/')");
    expect(result.output).not.toContain('server.mjs:2');
    expect(result.output).toContain('bench/a.mjs:1: __dirname');
    expect(result.output).toContain('README.md:1: links ../design/MAP.md');
    expect(result.output).toContain('3 reach(es)');
  });
});
