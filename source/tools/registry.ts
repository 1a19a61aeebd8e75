import {detectTool} from './detect.js';
import {getErrorsTool} from './get-errors.js';
import {getIncidentsTool} from './get-incidents.js';
import {procTool} from './proc.js';
import {proxyTool} from './proxy.js';
import {proxylogTool} from './proxylog.js';
import {currentpageTool} from './currentpage.js';
import {register, type RegisteredTool} from './register.js';
import {runTool} from './run.js';
import {snapshotTool} from './snapshot.js';

export {register, type RegisteredTool, type ToolOutcome} from './register.js';

/** Every tool `workbench mcp` serves. */
export const tools: RegisteredTool[] = [
  register(detectTool),
  register(runTool),
  register(procTool),
  register(proxyTool),
  register(proxylogTool),
  register(currentpageTool),
  register(getErrorsTool),
  register(getIncidentsTool),
  register(snapshotTool),
];

export function findTool(name: string): RegisteredTool | undefined {
  return tools.find((tool) => tool.name === name);
}
