import {z} from 'zod';
import {tools} from '../tools/registry.js';

/** JSON Schema of a zod schema as MCP lists it: defaults and enums in the schema, no `$schema` line. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): {type: 'object'; [key: string]: unknown} {
  const {$schema: _dialect, ...rest} = z.toJSONSchema(schema, {io, unrepresentable: 'any'}) as Record<string, unknown>;
  return {...rest, type: 'object'};
}

let listed: ReturnType<typeof build> | undefined;

function build() {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input'),
    outputSchema: jsonSchema(tool.output, 'output'),
    annotations: {title: tool.title, ...tool.annotations},
  }));
}

/** The tools/list answer: built once, the registry does not change while the server runs. */
export function listTools(): ReturnType<typeof build> {
  return (listed ??= build());
}
