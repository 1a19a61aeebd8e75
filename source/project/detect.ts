/** `detect [path]` (spec 1, tool `detect`): project types, package manager and runnable scripts. */
import {stat} from 'node:fs/promises';
import {resolve} from 'node:path';
import {WorkbenchError} from '../core/errors.js';
import {loadProjectConfig} from './config.js';
import {detectGo} from './go-entries.js';
import {makeTargets} from './make-targets.js';
import {detectNode} from './node-scripts.js';
import {ProjectFiles} from './project-files.js';
import {detectPython} from './python-entries.js';
import type {DetectedScript, ProjectInfo, ProjectType, ScriptSource} from './types.js';

export type {DetectedScript, ProjectInfo, ProjectType, ScriptSource} from './types.js';
export {formatProjectInfo} from './format-project.js';

// Prefixes for a name an earlier source already took (package.json `test` beats Makefile `test`).
const QUALIFIER: Record<ScriptSource, string> = {
  'package.json': 'npm',
  Makefile: 'make',
  'pyproject.toml': 'py',
  Pipfile: 'pipenv',
  'manage.py': 'django',
  'main.py': 'py',
  'app.py': 'py',
  go: 'go',
  '.workbench.kdl': 'kdl',
};

/** Throws not_found for a missing path, invalid_argument for a file, config_invalid for a bad .workbench.kdl. */
export async function detectProject(path: string): Promise<ProjectInfo> {
  const root = resolve(path);
  const info = await stat(root).catch(() => null);
  if (!info) throw new WorkbenchError('not_found', `no such folder: ${root}`);
  if (!info.isDirectory()) throw new WorkbenchError('invalid_argument', `not a folder: ${root} (detect takes a project folder)`);

  const files = new ProjectFiles(root);
  const [node, go, python, makefile, config] = await Promise.all([
    detectNode(files),
    detectGo(files),
    detectPython(files),
    files.first('GNUmakefile', 'makefile', 'Makefile'),
    loadProjectConfig(root),
  ]);

  const types: ProjectType[] = [];
  const packageManagers: ProjectInfo['packageManagers'] = {};
  for (const [type, found] of [
    ['node', node],
    ['go', go],
    ['python', python],
  ] as const) {
    if (!found) continue;
    types.push(type);
    packageManagers[type] = found.packageManager;
  }

  const detected: DetectedScript[] = [...(node?.scripts ?? [])];
  if (makefile) {
    for (const target of makeTargets((await files.read(makefile)) ?? '')) {
      detected.push({name: target, command: `make ${target}`, source: 'Makefile'});
    }
  }
  detected.push(...(python?.scripts ?? []), ...(go?.scripts ?? []));

  const configured: DetectedScript[] = (config?.scripts ?? []).map((s) => ({name: s.name, command: s.run, source: '.workbench.kdl'}));
  return {
    root,
    types,
    packageManager: types.length > 0 ? packageManagers[types[0]!]! : null,
    packageManagers,
    scripts: mergeScripts(detected, configured),
    warnings: [...(node?.warnings ?? []), ...(python?.warnings ?? [])],
  };
}

/**
 * Unique names. A configured script replaces the first detected one of its name; any later
 * detected script whose name is taken gets its source's prefix (`make:test`).
 */
function mergeScripts(detected: DetectedScript[], configured: DetectedScript[]): DetectedScript[] {
  const taken = new Set(configured.map((s) => s.name));
  const overridable = new Set(taken);
  const merged: DetectedScript[] = [];
  for (const script of detected) {
    if (overridable.delete(script.name)) continue;
    let name = script.name;
    if (taken.has(name)) name = `${QUALIFIER[script.source]}:${script.name}`;
    for (let n = 2; taken.has(name); n++) name = `${QUALIFIER[script.source]}:${script.name}-${n}`;
    taken.add(name);
    merged.push(name === script.name ? script : {...script, name});
  }
  return [...configured, ...merged];
}
