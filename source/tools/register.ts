import type {z} from 'zod';
import {WorkbenchError} from '../core/errors.js';
import type {ToolAnnotations, ToolContext, ToolDefinition} from './registry-types.js';
import {describeIssue} from './validation.js';

/** What one call of a tool gives each face: the compact text, the JSON face and the structured content. */
export interface ToolOutcome {
  text: string;
  raw: unknown;
  structured: Record<string, unknown>;
  /** The arguments after validation, defaults filled in. */
  args: Record<string, unknown>;
  /** Set when the result is the call's failure (ToolDefinition.failure). */
  failure?: string;
}

/** A tool with its types erased: what the registry holds and the faces call. */
export interface RegisteredTool {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  input: z.ZodObject;
  output: z.ZodObject;
  /** Whether `raw: true` asks for the JSON face (get_errors, get_incidents) rather than meaning something of its own (proc's ANSI). */
  jsonRaw: boolean;
  /** Validates `args` (a WorkbenchError `invalid_argument` in sentences), runs the handler, renders. */
  call(args: unknown, context: ToolContext, style?: 'cli' | 'tool'): Promise<ToolOutcome>;
}

export function register<Schema extends z.ZodObject, Result>(tool: ToolDefinition<Schema, Result>): RegisteredTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    annotations: tool.annotations,
    input: tool.input,
    output: tool.output,
    jsonRaw: tool.raw !== undefined,
    async call(args, context, style = 'tool') {
      const parsed = tool.input.safeParse(args ?? {}, {reportInput: true});
      if (!parsed.success) throw new WorkbenchError('invalid_argument', describeIssue(parsed.error, style));
      // Output-shaped (defaults filled in) is a valid input shape; the generic types cannot see it.
      const result = await tool.handler(parsed.data as z.input<Schema>, context);
      return {
        text: tool.compact(result, parsed.data, style),
        raw: tool.raw ? tool.raw(result, parsed.data) : result,
        structured: tool.structured ? tool.structured(result, parsed.data) : (result as Record<string, unknown>),
        args: parsed.data as Record<string, unknown>,
        failure: tool.failure?.(result),
      };
    },
  };
}
