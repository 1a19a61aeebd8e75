import type {z} from 'zod';
import type {DaemonClient} from '../daemon/client.js';

/** What a tool's handler may use; each face (CLI, MCP, TUI) builds one. */
export interface ToolContext {
  /** The daemon, started on first need. Throws `daemon not connected: ...` when it can't be reached. */
  daemon(): Promise<DaemonClient>;
  /** Directory that relative paths and script lookups start from. */
  cwd: string;
  /** Legacy mode of spec 1: no daemon; process alerts are absent. */
  noDaemon: boolean;
}

/**
 * A tool is defined once: name, zod input schema, handler, and the compact renderer.
 * `workbench mcp` registers every tool; CLI commands call the same handler and renderer.
 */
export interface ToolDefinition<Schema extends z.ZodObject = z.ZodObject, Result = unknown> {
  name: string;
  description: string;
  input: Schema;
  handler(args: z.infer<Schema>, context: ToolContext): Promise<Result>;
  /** Text for people and for the compact tool answer. */
  compact(result: Result, args: z.infer<Schema>): string;
}

export function defineTool<Schema extends z.ZodObject, Result>(tool: ToolDefinition<Schema, Result>): ToolDefinition<Schema, Result> {
  return tool;
}
