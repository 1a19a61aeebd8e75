import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {detectProject} from '../../../source/project/detect.js';

// pyproject.toml and Pipfile are read as TOML (smol-toml), so every way TOML spells a table counts.
let dir: string;
const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
const names = async () => (await detectProject(dir)).scripts.map((script) => `${script.name} ← ${script.source}: ${script.command}`);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-pytoml-'));
});
afterEach(() => rmSync(dir, {recursive: true, force: true}));

describe('Python scripts from TOML', () => {
  it('reads scripts written as dotted keys, at the root and inside [project]', async () => {
    write('pyproject.toml', 'project.name = "shop"\nproject.scripts.shop = "shop.cli:main"\n\n[tool.uv]\ndev-dependencies = []\n');
    expect(await names()).toEqual(['shop ← pyproject.toml: uv run shop']);

    write('pyproject.toml', '[project]\nname = "shop"\nscripts.serve = "shop.web:serve"\nscripts."shop-admin" = "shop.admin:main"\n');
    expect(await names()).toEqual(['serve ← pyproject.toml: serve', 'shop-admin ← pyproject.toml: shop-admin']);
  });

  it('reads scripts written as an inline table, and finds poetry from one', async () => {
    write('pyproject.toml', '[tool]\npoetry = {name = "api", scripts = {api = "api.main:run", migrate = {reference = "api.db:migrate", type = "console"}}}\n');
    const info = await detectProject(dir);
    expect(info.packageManager).toBe('poetry');
    expect(info.scripts.map((script) => script.command)).toEqual(['poetry run api', 'poetry run migrate']);
  });

  it('keeps arrays of tables, multi-line strings and comments out of the scripts', async () => {
    write(
      'pyproject.toml',
      [
        '[project]',
        'name = "shop"',
        'description = """',
        '[project.scripts]',
        'fake = "inside a string"',
        '"""',
        '',
        '[[project.authors]]',
        'name = "A"',
        '',
        '[project.scripts]  # the real one',
        "ship = 'shop.ship:main'",
        '',
        '[[tool.mypy.overrides]]',
        'module = "x"',
        '',
      ].join('\n'),
    );
    expect(await names()).toEqual(['ship ← pyproject.toml: ship']);
  });

  it('a table that is not one (scripts = "x") holds no scripts', async () => {
    write('pyproject.toml', '[project]\nscripts = "not a table"\n');
    expect(await names()).toEqual([]);
  });

  it('warns, with the line, when pyproject.toml or Pipfile is not TOML, and still detects the rest', async () => {
    write('pyproject.toml', '[project]\nname = "shop"\nscripts = {a = \n');
    write('Pipfile', '[scripts]\nserve = "flask run"\n[scripts]\nagain = "x"\n');
    write('app.py', '');
    const info = await detectProject(dir);
    expect(info.types).toEqual(['python']);
    expect(info.scripts.map((script) => script.name)).toEqual(['app']);
    expect(info.warnings).toHaveLength(2);
    expect(info.warnings[0]).toMatch(/^pyproject\.toml:3: .+; its scripts are ignored$/);
    expect(info.warnings[1]).toMatch(/^Pipfile:3: .+; its scripts are ignored$/);
  });
});
