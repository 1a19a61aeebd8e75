import {getNamedType, isObjectType, type GraphQLField, type GraphQLObjectType, type GraphQLSchema} from 'graphql';
import {WorkbenchError} from '../../core/errors.js';
import type {GqlService, GqlTable, Row, UserContext} from '../types.js';

/**
 * Reads and writes of one table for one user, as GraphQL documents run through the service's own
 * `execute`: the same compiled SQL, row policy (tenant filter, auto-filters, soft delete), hidden
 * columns and mutation path as any GraphQL client gets. Nothing here writes SQL.
 */
export interface ReadRequest {
  /** GraphQL column names. */
  columns: string[];
  filter?: Record<string, unknown>;
  /** `<column>_asc` / `<column>_desc`. */
  sort?: string[];
  limit?: number;
}

/** The GraphQL errors of a request, as one WorkbenchError (the caller's fault unless the database's). */
export class GraphqlRequestError extends WorkbenchError {}

function rootField(schema: GraphQLSchema, root: 'query' | 'mutation', table: GqlTable, name: string): GraphQLField<unknown, unknown> {
  let type: GraphQLObjectType | null | undefined = root === 'query' ? schema.getQueryType() : schema.getMutationType();
  if (table.schemaField && type) {
    const holder = getNamedType(type.getFields()[table.schemaField]?.type);
    type = isObjectType(holder) ? holder : undefined;
  }
  const field = type?.getFields()[name];
  if (!field) throw new WorkbenchError('not_found', `${table.key} has no GraphQL ${root} field ${name}`);
  return field;
}

/** `{ sf { field(args) { … } } }` when the table sits under a schema field, else `{ field(args) { … } }`. */
function document(
  root: 'query' | 'mutation',
  table: GqlTable,
  field: GraphQLField<unknown, unknown>,
  args: Record<string, unknown>,
  selection: string,
): {text: string; variables: Record<string, unknown>} {
  const used = Object.keys(args).filter((name) => args[name] !== undefined);
  const declared = used.map((name) => {
    const arg = field.args.find((item) => item.name === name);
    if (!arg) throw new WorkbenchError('internal', `${field.name} takes no argument ${name}`);
    return `$${name}: ${arg.type.toString()}`;
  });
  const call = `${field.name}${used.length ? `(${used.map((name) => `${name}: $${name}`).join(', ')})` : ''}${selection ? ` { ${selection} }` : ''}`;
  const body = table.schemaField ? `${table.schemaField} { ${call} }` : call;
  return {text: `${root}${declared.length ? `(${declared.join(', ')})` : ''} { ${body} }`, variables: Object.fromEntries(used.map((name) => [name, args[name]]))};
}

async function run(
  service: GqlService,
  user: UserContext,
  root: 'query' | 'mutation',
  table: GqlTable,
  fieldName: string,
  args: Record<string, unknown>,
  selection: string,
): Promise<unknown> {
  const field = rootField(service.schema as GraphQLSchema, root, table, fieldName);
  const {text, variables} = document(root, table, field, args, selection);
  const result = await service.execute({query: text, variables, user});
  if (result.errors?.length) {
    const first = result.errors[0]!;
    const code = String(first.extensions?.code ?? '');
    const known = ['forbidden', 'unauthorized', 'database_unavailable', 'conflict', 'not_found'].includes(code) ? (code as 'forbidden') : 'invalid_argument';
    throw new GraphqlRequestError(known, result.errors.map((error) => error.message).join('; '));
  }
  const data = result.data ?? {};
  const holder = (table.schemaField ? (data[table.schemaField] as Record<string, unknown>) : data) ?? {};
  return holder[fieldName];
}

/** Rows the user may read, with the asked columns (GraphQL names), and the total the filter matches. */
export async function readRows(service: GqlService, user: UserContext, table: GqlTable, request: ReadRequest): Promise<{rows: Row[]; total: number}> {
  const page = (await run(
    service,
    user,
    'query',
    table,
    table.name,
    {filter: request.filter, sort: request.sort, limit: request.limit},
    `data { ${request.columns.join(' ')} } total`,
  )) as {
    data: Row[];
    total: number;
  } | null;
  return {rows: page?.data ?? [], total: page?.total ?? 0};
}

/** Inserts one row through the mutation path; answers the new key. */
export async function insertRow(service: GqlService, user: UserContext, table: GqlTable, values: Row): Promise<number | string> {
  const key = await run(service, user, 'mutation', table, table.name, {insert: values}, '');
  if (key === null || key === undefined) throw new WorkbenchError('internal', `${table.key}: the insert answered no key`);
  return key as number | string;
}

/** A batch of insert/update/delete actions through `<t>_batch` (one transaction); answers its count. */
export async function runActions(service: GqlService, user: UserContext, table: GqlTable, actions: Array<Record<string, Row>>): Promise<number> {
  return (await run(service, user, 'mutation', table, `${table.name}_batch`, {actions}, '')) as number;
}
