import {detectTool} from './detect.js';
import {getErrorsTool} from './get-errors.js';
import {getIncidentsTool} from './get-incidents.js';
import {procTool} from './proc.js';
import type {ToolDefinition} from './registry-types.js';
import {runTool} from './run.js';

/** Every tool `workbench mcp` serves; later issues add proxy, proxylog, currentpage, snapshot here. */
export const tools: ToolDefinition[] = [detectTool, runTool, procTool, getErrorsTool, getIncidentsTool] as unknown as ToolDefinition[];

export function findTool(name: string): ToolDefinition | undefined {
  return tools.find((tool) => tool.name === name);
}
