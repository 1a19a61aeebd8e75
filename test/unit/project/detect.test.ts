import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {detectProject, formatProjectInfo, type DetectedScript} from '../../../source/project/detect.js';

const projects = fileURLToPath(new URL('../../../fixtures/projects/', import.meta.url));

const commands = (scripts: DetectedScript[]): Record<string, string> => Object.fromEntries(scripts.map((s) => [s.name, s.command]));

describe('detectProject on the fixture projects', () => {
  it('node-app: npm from package-lock.json, package.json scripts', async () => {
    const info = await detectProject(join(projects, 'node-app'));
    expect(info.root).toBe(join(projects, 'node-app'));
    expect(info.types).toEqual(['node']);
    expect(info.packageManager).toBe('npm');
    expect(info.scripts).toEqual([
      {name: 'dev', command: 'npm run dev', source: 'package.json'},
      {name: 'build', command: 'npm run build', source: 'package.json'},
      {name: 'test', command: 'npm run test', source: 'package.json'},
      {name: 'lint', command: 'npm run lint', source: 'package.json'},
    ]);
    expect(info.warnings).toEqual([]);
  });

  it('go-app: go run for the root and cmd/ main packages, go test', async () => {
    const info = await detectProject(join(projects, 'go-app'));
    expect(info.types).toEqual(['go']);
    expect(info.packageManager).toBe('go');
    expect(info.scripts).toEqual([
      {name: 'run', command: 'go run .', source: 'go'},
      {name: 'migrate', command: 'go run ./cmd/migrate', source: 'go'},
      {name: 'test', command: 'go test ./...', source: 'go'},
    ]);
  });

  it('python-app: uv from uv.lock, [project.scripts] with a quoted key, manage.py', async () => {
    const info = await detectProject(join(projects, 'python-app'));
    expect(info.types).toEqual(['python']);
    expect(info.packageManager).toBe('uv');
    expect(info.scripts).toEqual([
      {name: 'shop-admin', command: 'uv run shop-admin', source: 'pyproject.toml'},
      {name: 'serve-api', command: 'uv run serve-api', source: 'pyproject.toml'},
      {name: 'runserver', command: 'uv run python manage.py runserver', source: 'manage.py'},
    ]);
  });

  it('mixed: all three types, .workbench.kdl overrides dev, clashing names get a prefix', async () => {
    const info = await detectProject(join(projects, 'mixed'));
    expect(info.types).toEqual(['node', 'go', 'python']);
    expect(info.packageManager).toBe('pnpm');
    expect(info.packageManagers).toEqual({node: 'pnpm', go: 'go', python: 'pipenv'});
    expect(info.scripts[0]).toEqual({name: 'dev', command: 'pnpm exec vite --port 5173', source: '.workbench.kdl'});
    expect(info.scripts.filter((s) => s.name === 'dev')).toHaveLength(1);
    expect(commands(info.scripts)).toEqual({
      dev: 'pnpm exec vite --port 5173',
      test: 'pnpm run test',
      build: 'pnpm run build',
      'make:build': 'make build',
      'make:test': 'make test',
      deploy: 'make deploy',
      worker: 'pipenv run worker',
      beat: 'pipenv run beat',
      run: 'go run .',
      'go:test': 'go test ./...',
    });
    expect(new Set(info.scripts.map((s) => s.name)).size).toBe(info.scripts.length);
  });

  it('make-only: real targets only, no project type', async () => {
    const info = await detectProject(join(projects, 'make-only'));
    expect(info.types).toEqual([]);
    expect(info.packageManager).toBeNull();
    expect(info.scripts.map((s) => s.command)).toEqual(['make all', 'make check', 'make install', 'make clean', 'make distclean']);
    expect(info.scripts.every((s) => s.source === 'Makefile')).toBe(true);
  });
});

describe('detectProject on made-up folders', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'workbench-detect-'));
  });
  afterEach(() => rmSync(dir, {recursive: true, force: true}));

  const write = (name: string, text: string): void => {
    mkdirSync(join(dir, name, '..'), {recursive: true});
    writeFileSync(join(dir, name), text);
  };

  it.each([
    ['pnpm-lock.yaml', 'pnpm'],
    ['yarn.lock', 'yarn'],
    ['bun.lockb', 'bun'],
    ['bun.lock', 'bun'],
    ['npm-shrinkwrap.json', 'npm'],
  ])('takes the package manager from %s', async (lockfile, manager) => {
    write('package.json', '{"scripts": {"dev": "vite"}}');
    write(lockfile, '');
    const info = await detectProject(dir);
    expect(info.packageManager).toBe(manager);
    expect(info.scripts).toEqual([{name: 'dev', command: `${manager} run dev`, source: 'package.json'}]);
  });

  it('prefers the packageManager field to a lockfile, and defaults to npm', async () => {
    write('package.json', '{"packageManager": "yarn@4.5.0+sha512.abc", "scripts": {"start": "node ."}}');
    write('package-lock.json', '{}');
    expect((await detectProject(dir)).packageManager).toBe('yarn');
    write('package.json', '{"scripts": {"start": "node ."}}');
    rmSync(join(dir, 'package-lock.json'));
    expect((await detectProject(dir)).scripts).toEqual([{name: 'start', command: 'npm run start', source: 'package.json'}]);
  });

  it('reports a malformed package.json as a node project with no scripts and a warning', async () => {
    write('package.json', '{"scripts": {"dev": "vite",}}');
    const info = await detectProject(dir);
    expect(info.types).toEqual(['node']);
    expect(info.scripts).toEqual([]);
    expect(info.warnings).toHaveLength(1);
    expect(info.warnings[0]).toMatch(/^package\.json: not valid JSON \(.+\); its scripts are ignored$/);
  });

  it('reports an unreadable package.json the same way', async () => {
    mkdirSync(join(dir, 'package.json'));
    const info = await detectProject(dir);
    expect(info.types).toEqual(['node']);
    expect(info.warnings).toEqual(['package.json: cannot be read (EISDIR); its scripts are ignored']);
  });

  it('warns when scripts is not an object', async () => {
    write('package.json', '{"scripts": ["dev"]}');
    expect((await detectProject(dir)).warnings).toEqual(['package.json: "scripts" is not an object; ignored']);
  });

  it('finds poetry from [tool.poetry] and reads [tool.poetry.scripts]', async () => {
    write('pyproject.toml', '[tool.poetry]\nname = "api"\n\n[tool.poetry.scripts]\napi = "api.main:run"\n"db-migrate" = { reference = "api.db:migrate", type = "console" }\n');
    write('main.py', 'print("hi")\n');
    const info = await detectProject(dir);
    expect(info.packageManager).toBe('poetry');
    expect(info.scripts).toEqual([
      {name: 'api', command: 'poetry run api', source: 'pyproject.toml'},
      {name: 'db-migrate', command: 'poetry run db-migrate', source: 'pyproject.toml'},
      {name: 'main', command: 'poetry run python main.py', source: 'main.py'},
    ]);
  });

  it('runs manage.py and app.py with plain python under pip', async () => {
    write('requirements.txt', 'flask\n');
    write('manage.py', '');
    write('app.py', '');
    const info = await detectProject(dir);
    expect(info.packageManager).toBe('pip');
    expect(commands(info.scripts)).toEqual({runserver: 'python manage.py runserver', app: 'python app.py'});
  });

  it('reads Pipfile [scripts] under pipenv', async () => {
    write('Pipfile', '[packages]\nflask = "*"\n\n[scripts]\nserve = "flask run --debug"\n');
    const info = await detectProject(dir);
    expect(info.packageManager).toBe('pipenv');
    expect(info.scripts).toEqual([{name: 'serve', command: 'pipenv run serve', source: 'Pipfile'}]);
  });

  it('sees no go run without a main package, only go test', async () => {
    write('go.mod', 'module example.com/lib\n');
    write('lib.go', '// Package lib does things.\npackage lib\n');
    write('cmd/tool/main.go', '/* tool */\npackage main\n\nfunc main() {}\n');
    write('cmd/notes/README.md', 'not a command');
    const info = await detectProject(dir);
    expect(commands(info.scripts)).toEqual({tool: 'go run ./cmd/tool', test: 'go test ./...'});
  });

  it('includes .workbench.kdl scripts and rejects a malformed one', async () => {
    write('.workbench.kdl', 'scripts {\n  serve {\n    run "python3 -m http.server"\n  }\n}\n');
    expect((await detectProject(dir)).scripts).toEqual([{name: 'serve', command: 'python3 -m http.server', source: '.workbench.kdl'}]);
    write('.workbench.kdl', 'scripts {\n  serve {\n    command "x"\n  }\n}\n');
    await expect(detectProject(dir)).rejects.toMatchObject({code: 'config_invalid'});
  });

  it('gives an empty folder no type and no scripts', async () => {
    expect(await detectProject(dir)).toEqual({root: dir, types: [], packageManager: null, packageManagers: {}, scripts: [], warnings: []});
  });

  it('rejects a missing path with not_found and a file with invalid_argument', async () => {
    await expect(detectProject(join(dir, 'nope'))).rejects.toMatchObject({code: 'not_found', message: `no such folder: ${join(dir, 'nope')}`});
    write('package.json', '{}');
    await expect(detectProject(join(dir, 'package.json'))).rejects.toMatchObject({code: 'invalid_argument'});
  });
});

describe('formatProjectInfo', () => {
  it('shows the types with their managers and a table of scripts', async () => {
    const text = formatProjectInfo(await detectProject(join(projects, 'go-app')));
    expect(text.split('\n')).toEqual([
      `Project  ${join(projects, 'go-app')}`,
      'Type     go (go)',
      '',
      'NAME     COMMAND               FROM',
      'run      go run .              go',
      'migrate  go run ./cmd/migrate  go',
      'test     go test ./...         go',
    ]);
  });

  it('says when nothing was found and lists warnings', () => {
    const text = formatProjectInfo({root: '/x', types: ['node'], packageManager: 'npm', packageManagers: {node: 'npm'}, scripts: [], warnings: ['package.json: broken']});
    expect(text).toBe('Project  /x\nType     node (npm)\nScripts  none found\nwarning: package.json: broken');
  });
});
