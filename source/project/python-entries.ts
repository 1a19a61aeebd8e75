/**
 * Python projects: the manager from lockfiles and pyproject tables, scripts from
 * `[project.scripts]`, `[tool.poetry.scripts]`, Pipfile `[scripts]`, `manage.py`, `main.py`/`app.py`.
 * Commands go through the manager's runner (`uv run`, `poetry run`, `pipenv run`) because a plain
 * `python` outside the project's virtualenv fails to import its dependencies.
 */
import type {ProjectFiles} from './project-files.js';
import {tomlSections, type TomlSections} from './toml-sections.js';
import type {DetectedScript} from './types.js';

export interface PythonDetection {
  packageManager: string;
  scripts: DetectedScript[];
}

const MARKERS = ['pyproject.toml', 'Pipfile', 'Pipfile.lock', 'requirements.txt', 'setup.py', 'setup.cfg', 'manage.py', 'main.py', 'app.py', 'uv.lock', 'poetry.lock'];

const RUNNER: Record<string, string> = {uv: 'uv run ', poetry: 'poetry run ', pipenv: 'pipenv run ', pip: ''};

export async function detectPython(files: ProjectFiles): Promise<PythonDetection | null> {
  if (!(await files.first(...MARKERS))) return null;
  const pyproject = tomlSections((await files.read('pyproject.toml')) ?? '');
  const pipfile = tomlSections((await files.read('Pipfile')) ?? '');
  const packageManager = await manager(files, pyproject);
  const runner = RUNNER[packageManager]!;
  const scripts: DetectedScript[] = [];

  // Console scripts exist once the project is installed; the runner installs it on demand (uv, poetry).
  for (const table of ['project.scripts', 'tool.poetry.scripts']) {
    for (const name of pyproject.get(table)?.keys() ?? []) {
      scripts.push({name, command: `${runner}${name}`, source: 'pyproject.toml'});
    }
  }
  for (const name of pipfile.get('scripts')?.keys() ?? []) {
    scripts.push({name, command: `pipenv run ${name}`, source: 'Pipfile'});
  }
  if (await files.has('manage.py')) {
    scripts.push({name: 'runserver', command: `${runner}python manage.py runserver`, source: 'manage.py'});
  }
  for (const entry of ['main.py', 'app.py'] as const) {
    if (await files.has(entry)) scripts.push({name: entry.slice(0, -3), command: `${runner}python ${entry}`, source: entry});
  }
  return {packageManager, scripts};
}

async function manager(files: ProjectFiles, pyproject: TomlSections): Promise<string> {
  if (await files.has('uv.lock')) return 'uv';
  if (await files.has('poetry.lock')) return 'poetry';
  if (await files.first('Pipfile', 'Pipfile.lock')) return 'pipenv';
  if (pyproject.has('tool.uv')) return 'uv';
  if ([...pyproject.keys()].some(name => name === 'tool.poetry' || name.startsWith('tool.poetry.'))) return 'poetry';
  return 'pip';
}
