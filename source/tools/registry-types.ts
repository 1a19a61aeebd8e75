import type {z} from 'zod';
import type {DaemonClient} from '../daemon/client.js';
import type {ProxyManager} from '../devproxy/manager.js';
import type {Face} from './spell-args.js';

/** What a tool's handler may use; each face (CLI, MCP, TUI) builds one. */
export interface ToolContext {
  /**
   * The daemon, started on first need. Throws `daemon not connected: ...` when it can't be reached,
   * and a clear error in legacy mode (`noDaemon`), which never starts one.
   */
  daemon(): Promise<DaemonClient>;
  /** Directory that relative paths and script lookups start from. */
  cwd: string;
  /** Legacy mode of spec 1: no daemon; process alerts are absent. */
  noDaemon: boolean;
  /**
   * Legacy mode only: the proxies this process owns (`workbench mcp --no-daemon` keeps them for
   * its session). Absent, a legacy face has no proxies.
   */
  localProxies?: ProxyManager;
  /** The most characters an answer may carry (MCP: ANSWER_BUDGET); unset, answers are whole (the CLI). */
  budget?: number;
  /** The one call this context runs, when its face can cancel it or hear its progress (MCP). */
  call?: ToolCall;
}

/**
 * What a face gives one tool call besides its arguments: `signal` aborts when the caller gave up
 * (MCP's notifications/cancelled), and `progress` reports how far a wait has come (a no-op when
 * nobody asked; the face throttles it and keeps it strictly increasing).
 */
export interface ToolCall {
  signal: AbortSignal;
  progress(progress: number, total?: number, message?: string): void;
}

/** MCP tool annotations (hints to a client; the spec's names). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * A tool is defined once: name, title, zod input and output schemas, handler, and the compact
 * renderer. `workbench mcp` registers every tool; CLI commands call the same handler and renderer.
 */
export interface ToolDefinition<Schema extends z.ZodObject = z.ZodObject, Result = unknown> {
  name: string;
  title: string;
  /** When to use it, what it answers, and an example call. */
  description: string;
  annotations: ToolAnnotations;
  /** A strict object: unknown keys are refused, as the CLI refuses unknown options. */
  input: Schema;
  /** The shape of `structured(result)`: MCP's outputSchema and structuredContent. */
  output: z.ZodObject;
  /** Takes input-shaped args (defaults may be missing): the TUI's ports call handlers directly. */
  handler(args: z.input<Schema>, context: ToolContext): Promise<Result>;
  /**
   * Text for people and for the compact tool answer; kept within the answer budget by the tool.
   * `face` spells the hints in it as that face takes arguments (spell-args.ts).
   */
  compact(result: Result, args: z.output<Schema>, face: Face): string;
  /** The JSON face (`raw`, `--json`); defaults to the result itself. */
  raw?(result: Result, args: z.output<Schema>): unknown;
  /** The structured content, matching `output`; defaults to the result itself. */
  structured?(result: Result, args: z.output<Schema>): Record<string, unknown>;
  /** A result that is the call's failure (the page's code threw), in one line: MCP's isError, the CLI's exit 1. */
  failure?(result: Result): string | undefined;
}

export function defineTool<Schema extends z.ZodObject, Result>(tool: ToolDefinition<Schema, Result>): ToolDefinition<Schema, Result> {
  return tool;
}
