/** What `detect` reports about a project (spec 1, tool `detect`). */
export type ProjectType = 'node' | 'go' | 'python';

export type ScriptSource = 'package.json' | 'Makefile' | 'go' | 'pyproject.toml' | 'Pipfile' | 'manage.py' | 'main.py' | 'app.py' | '.workbench.kdl';

export interface DetectedScript {
  /** Unique within a project; a name taken by an earlier source is qualified (`make:test`). */
  name: string;
  /** The shell command that runs it from the project root. */
  command: string;
  source: ScriptSource;
}

export interface ProjectInfo {
  /** Absolute path of the project folder. */
  root: string;
  /** In the order node, go, python; several for a mixed project, none for an unknown one. */
  types: ProjectType[];
  /** The manager of the first type: npm, pnpm, yarn, bun; go; pip, poetry, pipenv, uv. */
  packageManager: string | null;
  /** The manager of each detected type, for mixed projects. */
  packageManagers: Partial<Record<ProjectType, string>>;
  scripts: DetectedScript[];
  /** Things that went wrong without stopping detection (a package.json that does not parse). */
  warnings: string[];
}
