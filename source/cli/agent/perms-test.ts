/** `workbench agent perms test`: the project's rules (cwd's .workbench.kdl) applied to one call. */
import {join} from 'node:path';
import {EXIT_CODE, explain, explanationJson, formatExplanation, permissionTool} from '../../agent/permissions/explain.js';
import {CONFIG_FILE, loadProjectConfig} from '../../project/config.js';
import {findTool} from '../../tools/registry.js';
import type {CommandResult} from '../command-output.js';

export async function permsTest(toolText: string, argument: string, options: {json: boolean; cwd: string}): Promise<CommandResult> {
  const tool = permissionTool(toolText);
  const config = await loadProjectConfig(options.cwd);
  const rules = config?.agent ?? [];
  const rulesFrom = config ? `${join(options.cwd, CONFIG_FILE)} (${rules.length} rule${rules.length === 1 ? '' : 's'})` : `no ${CONFIG_FILE} in ${options.cwd} (defaults only)`;
  // A workbench tool is safe by default when the registry marks it read-only (the name is the argument's first word).
  const safeByDefault = tool === 'workbench' && findTool(argument.split(' ', 1)[0] ?? '')?.annotations.readOnlyHint === true;
  const explanation = explain(rules, tool, argument, rulesFrom, safeByDefault);
  const exitCode = EXIT_CODE[explanation.decision.action];
  if (options.json) return {stdout: `${JSON.stringify(explanationJson(explanation), null, 2)}\n`, exitCode};
  return {stdout: formatExplanation(explanation), exitCode};
}
