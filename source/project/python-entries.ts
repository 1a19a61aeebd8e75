/**
 * Python projects: the manager from lockfiles and pyproject tables, scripts from
 * `[project.scripts]`, `[tool.poetry.scripts]`, Pipfile `[scripts]`, `manage.py`, `main.py`/`app.py`.
 * Commands go through the manager's runner (`uv run`, `poetry run`, `pipenv run`) because a plain
 * `python` outside the project's virtualenv fails to import its dependencies.
 */
import type {ProjectFiles} from './project-files.js';
import type {DetectedScript} from './types.js';

export interface PythonDetection {
  packageManager: string;
  scripts: DetectedScript[];
  /** A pyproject.toml or Pipfile that is not TOML: its scripts are left out, and this says why. */
  warnings: string[];
}

type TomlTable = Record<string, unknown>;

const MARKERS = ['pyproject.toml', 'Pipfile', 'Pipfile.lock', 'requirements.txt', 'setup.py', 'setup.cfg', 'manage.py', 'main.py', 'app.py', 'uv.lock', 'poetry.lock'];

const RUNNER: Record<string, string> = {uv: 'uv run ', poetry: 'poetry run ', pipenv: 'pipenv run ', pip: ''};

export async function detectPython(files: ProjectFiles): Promise<PythonDetection | null> {
  if (!(await files.first(...MARKERS))) return null;
  const warnings: string[] = [];
  const pyproject = await readToml(files, 'pyproject.toml', warnings);
  const pipfile = await readToml(files, 'Pipfile', warnings);
  const packageManager = await manager(files, pyproject);
  const runner = RUNNER[packageManager]!;
  const scripts: DetectedScript[] = [];

  // Console scripts exist once the project is installed; the runner installs it on demand (uv, poetry).
  for (const table of [
    ['project', 'scripts'],
    ['tool', 'poetry', 'scripts'],
  ]) {
    for (const name of Object.keys(tableAt(pyproject, table) ?? {})) {
      scripts.push({name, command: `${runner}${name}`, source: 'pyproject.toml'});
    }
  }
  for (const name of Object.keys(tableAt(pipfile, ['scripts']) ?? {})) {
    scripts.push({name, command: `pipenv run ${name}`, source: 'Pipfile'});
  }
  if (await files.has('manage.py')) {
    scripts.push({name: 'runserver', command: `${runner}python manage.py runserver`, source: 'manage.py'});
  }
  for (const entry of ['main.py', 'app.py'] as const) {
    if (await files.has(entry)) scripts.push({name: entry.slice(0, -3), command: `${runner}python ${entry}`, source: entry});
  }
  return {packageManager, scripts, warnings};
}

/** A TOML file as tables (smol-toml: inline tables, dotted keys and arrays of tables as TOML means them); {} when absent or malformed. */
async function readToml(files: ProjectFiles, name: string, warnings: string[]): Promise<TomlTable> {
  const text = await files.read(name);
  if (text === undefined) return {};
  // Loaded only for Python projects: detect and the daemon start without it.
  const {parse, TomlError} = await import('smol-toml');
  try {
    return parse(text) as TomlTable;
  } catch (error) {
    const what = ((error as Error).message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
    warnings.push(`${name}${error instanceof TomlError ? `:${error.line}` : ''}: ${what}; its scripts are ignored`);
    return {};
  }
}

/** The table at `path` (`tool.poetry.scripts` as ['tool', 'poetry', 'scripts']), if it is one. */
function tableAt(root: TomlTable, path: string[]): TomlTable | undefined {
  let node: unknown = root;
  for (const key of path) node = isTable(node) ? node[key] : undefined;
  return isTable(node) ? node : undefined;
}

function isTable(value: unknown): value is TomlTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

async function manager(files: ProjectFiles, pyproject: TomlTable): Promise<string> {
  if (await files.has('uv.lock')) return 'uv';
  if (await files.has('poetry.lock')) return 'poetry';
  if (await files.first('Pipfile', 'Pipfile.lock')) return 'pipenv';
  if (tableAt(pyproject, ['tool', 'uv'])) return 'uv';
  if (tableAt(pyproject, ['tool', 'poetry'])) return 'poetry';
  return 'pip';
}
