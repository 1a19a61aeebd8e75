import {resolve} from 'node:path';
import {WorkbenchError} from '../core/errors.js';

export interface ResolvedScript {
  name: string;
  command: string;
  cwd: string;
}

/** Finds a script by name among the project's detected scripts and `.workbench.kdl` ones. */
export async function resolveScript(name: string, cwd: string): Promise<ResolvedScript> {
  // Loaded on use: the KDL parser builds its grammar at import, which CLI start-up need not pay.
  const {detectProject} = await import('../project/detect.js');
  const project = await detectProject(resolve(cwd));
  const script = project.scripts.find((candidate) => candidate.name === name);
  if (!script) {
    const names = project.scripts.map((candidate) => candidate.name);
    const known = names.length ? `available: ${names.join(', ')}` : 'this project has no runnable scripts';
    throw new WorkbenchError('not_found', `script "${name}" not found in ${project.root} (${known})`);
  }
  return {name: script.name, command: script.command, cwd: project.root};
}
