/**
 * A model's tool arguments checked against the tool's zod schema, with the problem in words the
 * model can act on: arguments that were not JSON arrive as the raw text (types.ts ToolCallRequest).
 */
import {z} from 'zod';
import {WorkbenchError} from '../../core/errors.js';

export function parseToolInput<Schema extends z.ZodType>(tool: string, schema: Schema, input: unknown): z.output<Schema> {
  if (typeof input === 'string') {
    throw new WorkbenchError(
      'invalid_argument',
      `${tool}: the arguments were not a JSON object (got ${JSON.stringify(input.length > 80 ? `${input.slice(0, 80)}…` : input)}); send them as JSON, e.g. ${example(schema)}`,
    );
  }
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : 'arguments'}: ${issue.message}`);
  throw new WorkbenchError('invalid_argument', `${tool}: bad arguments — ${problems.join('; ')}. Expected ${example(schema)}`);
}

/** The argument names and types, from the JSON Schema, as one line. */
function example(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, {io: 'input'}) as {properties?: Record<string, {type?: string}>; required?: string[]};
  const fields = Object.entries(json.properties ?? {}).map(([name, property]) => `"${name}"${json.required?.includes(name) ? '' : '?'}: ${property.type ?? 'value'}`);
  return `{${fields.join(', ')}}`;
}

/** A zod object schema as the JSON Schema a model is given. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const {$schema: _ignored, ...rest} = z.toJSONSchema(schema, {io: 'input'}) as Record<string, unknown>;
  return rest;
}
