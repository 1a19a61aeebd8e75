import {loadProjectConfig} from '../../project/config.js';
import type {Permit} from '../types.js';
import {createPermit, type PermitOptions} from './permit.js';

/** The permit of a project: its `.workbench.kdl` agent rules, then the face's flag and asker. */
export async function projectPermit(cwd: string, options: Omit<PermitOptions, 'rules'>): Promise<Permit> {
  const config = await loadProjectConfig(cwd);
  return createPermit({...options, rules: config?.agent ?? []});
}
