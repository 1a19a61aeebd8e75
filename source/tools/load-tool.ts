import {register, type RegisteredTool} from './register.js';
import type {ToolDefinition} from './registry-types.js';

/**
 * Each tool's module by name, loaded on demand: a CLI command runs one tool, and the whole
 * registry (registry.ts, what `workbench mcp` serves) would load every tool's schemas and the
 * modules behind every handler — the dev proxy, the supervisor, the snapshot browser's — first.
 * test/unit/tools/load-tool.test.ts checks that this lists the registry's tools.
 */
const loaders: Record<string, () => Promise<ToolDefinition>> = {
  detect: async () => (await import('./detect.js')).detectTool,
  run: async () => (await import('./run.js')).runTool,
  proc: async () => (await import('./proc.js')).procTool,
  proxy: async () => (await import('./proxy.js')).proxyTool,
  proxylog: async () => (await import('./proxylog.js')).proxylogTool,
  currentpage: async () => (await import('./currentpage.js')).currentpageTool,
  get_errors: async () => (await import('./get-errors.js')).getErrorsTool,
  get_incidents: async () => (await import('./get-incidents.js')).getIncidentsTool,
  snapshot: async () => (await import('./snapshot.js')).snapshotTool,
};

/** The tools loadTool knows, by name. */
export const loadableTools = Object.keys(loaders);

/** One registered tool by name, loading only its own module; undefined for an unknown name. */
export async function loadTool(name: string): Promise<RegisteredTool | undefined> {
  const load = Object.hasOwn(loaders, name) ? loaders[name] : undefined;
  return load ? register(await load()) : undefined;
}
