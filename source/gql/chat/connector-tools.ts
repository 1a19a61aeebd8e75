import {fileTypeFromBuffer} from 'file-type';
import type {ModelToolSpec, ToolImage} from '../../agent/types.js';
import type {GqlService, GqlTable, Row, UserContext} from '../types.js';
import type {PlanOperation} from './chat-keys.js';
import type {ChatConnector} from './chat-schema.js';
import {readRows} from './table-access.js';

/** What a tool call hands back: the model's text (and images), the one-line summary a face shows, a plan it proposed. */
export interface ConnectorOutcome {
  content: string;
  isError: boolean;
  images?: ToolImage[];
  summary: string;
  /** Set by the plan tool: the operations to store as a proposal (the caller stores it and fills the id in). */
  proposal?: PlanProposal;
}

export interface PlanProposal {
  /** `schema.table`. */
  table: string;
  summary: string;
  operations: Array<{op: PlanOperation; values: Row}>;
}

export interface ConnectorTool {
  spec: ModelToolSpec;
  run(input: unknown, user: UserContext): Promise<ConnectorOutcome>;
}

/** Rows one explore call returns at most: enough to answer, small enough for a model's context. */
export const EXPLORE_MAX_ROWS = 100;
const EXPLORE_DEFAULT_ROWS = 20;
/** Bytes of a binary media value sent to a model as text (base64) when it is not vision input. */
const MEDIA_TEXT_BYTES = 64 * 1024;
const VISION_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

const fail = (summary: string, message: string): ConnectorOutcome => ({content: message, isError: true, summary});
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The tools of every connector table, named `<type>_<GraphQL name>`. */
export function connectorTools(service: GqlService, connectors: ChatConnector[]): ConnectorTool[] {
  const tools: ConnectorTool[] = [];
  for (const connector of connectors) {
    if (connector.types.includes('explore')) tools.push(exploreTool(service, connector));
    if (connector.media) tools.push(mediaTool(service, connector, connector.media));
    if (connector.plan) tools.push(planTool(connector, connector.plan.operations));
  }
  return tools;
}

const visibleColumns = (table: GqlTable) => table.columns.filter((column) => !column.hidden).map((column) => column.name);

function describe(connector: ChatConnector, what: string): string {
  return connector.description ? `${connector.description}\n\n${what}` : what;
}

/** Filter keys that are not visible columns or links of the table (checked through and/or): named as unknown. */
function unknownFilterKeys(table: GqlTable, filter: unknown, found: string[] = []): string[] {
  if (!isObject(filter)) return found;
  const known = new Set([...visibleColumns(table), ...table.links.map((link) => link.name)]);
  for (const [key, value] of Object.entries(filter)) {
    if (key === 'and' || key === 'or') for (const part of Array.isArray(value) ? value : []) unknownFilterKeys(table, part, found);
    else if (!known.has(key)) found.push(key);
  }
  return found;
}

function exploreTool(service: GqlService, connector: ChatConnector): ConnectorTool {
  const {table} = connector;
  const columns = visibleColumns(table);
  const name = `explore_${table.name}`;
  return {
    spec: {
      name,
      description: describe(
        connector,
        `Reads rows of ${table.name} (columns ${columns.join(', ')}). filter uses the GraphQL filter language: {column: {_eq|_neq|_gt|_gte|_lt|_lte|_in|_nin|_null|_contains|_starts_with|_like: value}, and: [...], or: [...]}. sort: ["<column>_asc"|"<column>_desc"]. At most ${EXPLORE_MAX_ROWS} rows.`,
      ),
      inputSchema: {
        type: 'object',
        properties: {
          columns: {type: 'array', items: {type: 'string', enum: columns}, description: 'Columns to return (default: all).'},
          filter: {type: 'object', description: 'A filter in the service’s filter language.'},
          sort: {type: 'array', items: {type: 'string'}, description: '"<column>_asc" or "<column>_desc", in order.'},
          limit: {type: 'integer', minimum: 1, maximum: EXPLORE_MAX_ROWS},
        },
        additionalProperties: false,
      },
    },
    async run(input, user) {
      const args = isObject(input) ? input : {};
      if (!isObject(input)) return fail(`${name}: bad arguments`, `${name} takes an object: {columns?, filter?, sort?, limit?}`);
      const asked = args.columns === undefined ? columns : args.columns;
      if (!Array.isArray(asked) || asked.some((item) => typeof item !== 'string')) return fail(`${name}: bad columns`, 'columns must be a list of column names');
      const unknown = [
        ...(asked as string[]).filter((column) => !columns.includes(column)),
        ...(Array.isArray(args.sort) ? (args.sort as unknown[]) : []).map((item) => String(item).replace(/_(asc|desc)$/, '')).filter((column) => !columns.includes(column)),
        ...unknownFilterKeys(table, args.filter),
      ];
      if (unknown.length > 0)
        return fail(`${name}: unknown column ${unknown.join(', ')}`, `unknown column ${[...new Set(unknown)].join(', ')}: ${table.name} has ${columns.join(', ')}`);
      const limit = typeof args.limit === 'number' && Number.isInteger(args.limit) ? Math.min(Math.max(args.limit, 1), EXPLORE_MAX_ROWS) : EXPLORE_DEFAULT_ROWS;
      try {
        const {rows, total} = await readRows(service, user, table, {
          columns: asked as string[],
          ...(isObject(args.filter) ? {filter: args.filter} : {}),
          ...(Array.isArray(args.sort) ? {sort: args.sort as string[]} : {}),
          limit,
        });
        return {content: JSON.stringify({total, rows}), isError: false, summary: `${name} → ${rows.length} of ${total} row${total === 1 ? '' : 's'}`};
      } catch (error) {
        return fail(`${name}: refused`, (error as Error).message);
      }
    },
  };
}

/** The key of one row from the tool's input: `{<key column>: value, …}`. */
function keyFilter(table: GqlTable, input: unknown): Record<string, unknown> | string {
  const keys = table.columns.filter((column) => column.isPrimaryKey);
  if (!isObject(input)) return `give the row's key: {${keys.map((column) => `${column.name}: …`).join(', ')}}`;
  const missing = keys.filter((column) => input[column.name] === undefined || input[column.name] === null);
  if (missing.length > 0) return `the row's key needs ${missing.map((column) => column.name).join(', ')}`;
  return Object.fromEntries(keys.map((column) => [column.name, {_eq: input[column.name]}]));
}

function mediaTool(service: GqlService, connector: ChatConnector, media: NonNullable<ChatConnector['media']>): ConnectorTool {
  const {table} = connector;
  const keys = table.columns.filter((column) => column.isPrimaryKey);
  const name = `media_${table.name}`;
  const kind = media.column.kind === 'binary' ? 'the stored file' : 'the URL';
  return {
    spec: {
      name,
      description: describe(
        connector,
        `Fetches ${kind} of ${table.name}.${media.column.name} for one row${media.caption ? `, with its caption (${media.caption.name})` : ''}${media.vision ? '; images are shown to you' : ''}.`,
      ),
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(keys.map((column) => [column.name, {type: ['int', 'bigint'].includes(column.kind) ? 'integer' : 'string'}])),
        required: keys.map((column) => column.name),
        additionalProperties: false,
      },
    },
    async run(input, user) {
      const filter = keyFilter(table, input);
      if (typeof filter === 'string') return fail(`${name}: no key`, filter);
      const columns = [...keys.map((column) => column.name), media.column.name, ...(media.caption ? [media.caption.name] : [])];
      let row: Row | undefined;
      try {
        row = (await readRows(service, user, table, {columns, filter, limit: 1})).rows[0];
      } catch (error) {
        return fail(`${name}: refused`, (error as Error).message);
      }
      const which = keys.map((column) => `${column.name} ${JSON.stringify((input as Row)[column.name])}`).join(', ');
      if (!row) return fail(`${name}: no row ${which}`, `no ${table.name} row with ${which}`);
      const caption = media.caption ? (row[media.caption.name] as string | null) : undefined;
      const value = row[media.column.name];
      if (value === null || value === undefined) return {content: JSON.stringify({caption, media: null}), isError: false, summary: `${name} ${which}: empty`};
      if (media.column.kind === 'string') {
        const url = String(value);
        const images: ToolImage[] | undefined = media.vision && /^https?:\/\//i.test(url) ? [{url}] : undefined;
        return {content: JSON.stringify({caption, url}), isError: false, ...(images ? {images} : {}), summary: `${name} ${which}: ${url}`};
      }
      const bytes = Buffer.from(String(value), 'hex');
      const mediaType = (await fileTypeFromBuffer(bytes))?.mime ?? 'application/octet-stream';
      const summary = `${name} ${which}: ${mediaType}, ${bytes.length} bytes${media.vision && VISION_TYPES.has(mediaType) ? ' (vision)' : ''}`;
      if (media.vision && VISION_TYPES.has(mediaType)) {
        return {
          content: JSON.stringify({caption, mediaType, bytes: bytes.length}),
          isError: false,
          images: [{mediaType: mediaType as 'image/png', data: bytes.toString('base64')}],
          summary,
        };
      }
      const base64 = bytes.length <= MEDIA_TEXT_BYTES ? bytes.toString('base64') : undefined;
      return {
        content: JSON.stringify({caption, mediaType, bytes: bytes.length, ...(base64 ? {base64} : {note: `larger than ${MEDIA_TEXT_BYTES} bytes: not sent`})}),
        isError: false,
        summary,
      };
    },
  };
}

function planTool(connector: ChatConnector, allowed: PlanOperation[]): ConnectorTool {
  const {table} = connector;
  const columns = visibleColumns(table);
  const name = `plan_${table.name}`;
  return {
    spec: {
      name,
      description: describe(
        connector,
        `Proposes changes to ${table.name} (${allowed.join(', ')}). Nothing runs until the user approves the plan. values: the columns to write (${columns.join(', ')}); update and delete name the row by its key (${table.primaryKey.join(', ')}).`,
      ),
      inputSchema: {
        type: 'object',
        properties: {
          summary: {type: 'string', description: 'One sentence: what the plan does and why.'},
          operations: {
            type: 'array',
            minItems: 1,
            items: {type: 'object', properties: {op: {type: 'string', enum: allowed}, values: {type: 'object'}}, required: ['op', 'values'], additionalProperties: false},
          },
        },
        required: ['summary', 'operations'],
        additionalProperties: false,
      },
    },
    async run(input) {
      if (!isObject(input) || !Array.isArray(input.operations) || input.operations.length === 0)
        return fail(`${name}: bad arguments`, `${name} takes {summary, operations: [{op, values}]} with at least one operation`);
      const operations: PlanProposal['operations'] = [];
      for (const [index, item] of (input.operations as unknown[]).entries()) {
        if (!isObject(item) || typeof item.op !== 'string' || !isObject(item.values)) return fail(`${name}: bad operation`, `operation ${index + 1} must be {op, values: {...}}`);
        const op = item.op.toLowerCase();
        if (!(allowed as string[]).includes(op))
          return fail(
            `${name}: ${op} refused`,
            `${op} is not allowed on ${table.name}: chat-plan-operations lists ${allowed.join(', ')}${op === 'delete' ? ' (delete is never implied)' : ''}`,
          );
        const unknown = Object.keys(item.values).filter((column) => !columns.includes(column));
        if (unknown.length > 0) return fail(`${name}: unknown column ${unknown.join(', ')}`, `unknown column ${unknown.join(', ')}: ${table.name} has ${columns.join(', ')}`);
        const missingKey = table.columns.filter((column) => column.isPrimaryKey && (item.values as Row)[column.name] === undefined);
        if (op !== 'insert' && missingKey.length > 0) return fail(`${name}: no key`, `${op} needs the row's key: ${missingKey.map((column) => column.name).join(', ')}`);
        operations.push({op: op as PlanOperation, values: item.values as Row});
      }
      const summary = typeof input.summary === 'string' && input.summary.trim() ? input.summary.trim() : `${operations.length} change(s) to ${table.name}`;
      return {
        content: 'proposed: the user must approve this plan before anything runs; tell them what it does',
        isError: false,
        summary: `${name}: ${operations.map((operation) => operation.op).join(', ')} (awaiting approval)`,
        proposal: {table: table.key, summary, operations},
      };
    },
  };
}
