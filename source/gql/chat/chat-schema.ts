import {PropertyReader} from '../model/property-reader.js';
import type {DbModel, GqlColumn, GqlModel, GqlTable, ModelProblem, ResolvedMetadata} from '../types.js';
import {CHAT_KEY, CHAT_KEYS, CONNECTOR_TYPES, type ConnectorType, MESSAGE_MAPPING, PLAN_OPERATIONS, type PlanOperation} from './chat-keys.js';

/** The conversations table and its messages table, mapped column by column (db names). */
export interface ChatTables {
  conversations: {table: GqlTable; key: GqlColumn; title?: GqlColumn};
  messages: {table: GqlTable; key: GqlColumn; role: GqlColumn; content: GqlColumn; conversationFk: GqlColumn; createdAt: GqlColumn};
}

/** One table offered to the model as tools (`chat-connector`). */
export interface ChatConnector {
  table: GqlTable;
  types: ConnectorType[];
  media?: {column: GqlColumn; vision: boolean; caption?: GqlColumn};
  plan?: {operations: PlanOperation[]};
  description?: string;
}

export interface ChatSchema {
  /** Undefined when no table sets chat-conversations/chat-messages (no chat endpoint). */
  tables?: ChatTables;
  connectors: ChatConnector[];
}

/** Which family an unknown `chat-*` key looks like it belongs to, for the message. */
function familyOf(key: string): string {
  if (key.startsWith('chat-connector-')) return 'a chat-connector key';
  if (key.startsWith('chat-media-')) return 'a chat-media key (chat-media-column, chat-media-vision, chat-media-caption)';
  if (key.startsWith('chat-plan-')) return 'a chat-plan key (chat-plan-operations)';
  return 'a chat key';
}

const columnOf = (table: GqlTable, name: string | undefined): GqlColumn | undefined =>
  name === undefined ? undefined : table.columns.find((column) => column.dbName.toLowerCase() === name.toLowerCase());

const DATE_TIME = new Set(['date', 'datetime']);

/**
 * The chat schema and connectors of a model (spec 3). At load (with the database model) every
 * failure the spec names is collected as a ModelProblem naming the rule; at request time the same
 * reading runs over the loaded model's `meta` with the problems discarded, so the endpoint and the
 * tools see exactly what load accepted.
 */
export function readChatSchema(model: GqlModel, resolved: ResolvedMetadata, problems: ModelProblem[], db?: DbModel): ChatSchema {
  for (const key of Object.keys(resolved.model)) {
    if (key.startsWith('chat-')) new PropertyReader(':root', resolved.model, resolved, problems).problem(key, 'chat keys apply to a table, not to the model (:root)', false);
  }
  for (const [target, props] of resolved.columns) {
    for (const key of Object.keys(props)) {
      if (key.startsWith('chat-'))
        new PropertyReader(target, props, resolved, problems).problem(
          key,
          `${key} applies to a table, not to a column: write it on the table and name the column as its value`,
          false,
        );
    }
  }
  const conversations: Array<{table: GqlTable; read: PropertyReader}> = [];
  const messages: Array<{table: GqlTable; read: PropertyReader}> = [];
  const connectors: ChatConnector[] = [];
  for (const table of model.tables) {
    const read = new PropertyReader(table.key, resolved.tables.get(table.key) ?? table.meta, resolved, problems);
    for (const key of Object.keys(read.props)) {
      if (key.startsWith('chat-') && !CHAT_KEYS.has(key)) read.problem(key, `${key} is not ${familyOf(key)} the spec knows: the chat keys are ${[...CHAT_KEYS].join(', ')}`, false);
    }
    if (enabledFlag(read, CHAT_KEY.conversations)) conversations.push({table, read});
    else if (read.has(CHAT_KEY.title)) read.problem(CHAT_KEY.title, `needs ${CHAT_KEY.conversations}: enabled on the same table (the title belongs to the conversations table)`);
    if (enabledFlag(read, CHAT_KEY.messages)) messages.push({table, read});
    else for (const key of MESSAGE_MAPPING) if (read.has(key)) read.problem(key, `needs ${CHAT_KEY.messages}: enabled on the same table (it maps a messages table's column)`);
    const connector = connectorOf(table, read);
    if (connector) connectors.push(connector);
  }
  return {tables: chatTables(conversations, messages, problems, db), connectors};
}

/** `enabled` (or any true spelling) marks the table; `disabled` does not; anything else is a problem. */
function enabledFlag(read: PropertyReader, key: string): boolean {
  if (!read.has(key)) return false;
  if (read.text(key) === undefined) {
    read.problem(key, 'is empty: write enabled');
    return false;
  }
  return read.boolean(key, false);
}

function chatTables(
  conversations: Array<{table: GqlTable; read: PropertyReader}>,
  messages: Array<{table: GqlTable; read: PropertyReader}>,
  problems: ModelProblem[],
  db: DbModel | undefined,
): ChatTables | undefined {
  if (conversations.length === 0 && messages.length === 0) return undefined;
  let broken = false;
  for (const [list, key, other] of [
    [conversations, CHAT_KEY.conversations, CHAT_KEY.messages],
    [messages, CHAT_KEY.messages, CHAT_KEY.conversations],
  ] as const) {
    if (list.length > 1) {
      for (const {read} of list)
        read.problem(
          key,
          `${list.map(({table}) => table.key).join(', ')} all set ${key}: a model has exactly one ${key === CHAT_KEY.messages ? 'messages' : 'conversations'} table`,
          false,
        );
      broken = true;
    }
    if (list.length === 0) {
      const [first] = key === CHAT_KEY.conversations ? messages : conversations;
      first!.read.problem(other, `${first!.table.key} sets ${other} but no table sets ${key}: a chat schema needs exactly one of each`, false);
      broken = true;
    }
  }
  if (broken) return undefined;
  const conv = conversations[0]!;
  const msg = messages[0]!;
  const problemsBefore = problems.length;
  for (const {table, read} of [conv, msg]) {
    const key = table === conv.table ? CHAT_KEY.conversations : CHAT_KEY.messages;
    if (table.hidden) read.problem(key, `${table.key} is hidden: the chat tables must be published (remove visibility: hidden)`, false);
    if (table.primaryKey.length !== 1)
      read.problem(key, `${table.key} needs a single-column primary key (it has ${table.primaryKey.length || 'none'}): chat rows are written through the mutation path`, false);
  }
  const convKey = columnOf(conv.table, conv.table.primaryKey[0]);
  const msgKey = columnOf(msg.table, msg.table.primaryKey[0]);
  const mapped = (read: PropertyReader, table: GqlTable, key: string, kinds: ReadonlySet<string>, kindText: string, required: boolean): GqlColumn | undefined => {
    const name = read.text(key);
    if (name === undefined) {
      if (read.has(key)) read.problem(key, 'is empty: name a column');
      else if (required) read.problem(CHAT_KEY.messages, `${CHAT_KEY.messages} needs the full mapping: ${key} is missing (${MESSAGE_MAPPING.join(', ')})`, false);
      return undefined;
    }
    const column = columnOf(table, name);
    if (!column) read.problem(key, `${table.key} has no column ${name}`);
    else if (column.hidden) read.problem(key, `${table.key}.${column.dbName} is hidden: a chat column must be published`);
    else if (!kinds.has(column.kind)) read.problem(key, `${table.key}.${column.dbName} is ${column.kind} (${column.dataType}): it must be ${kindText}`);
    else return column;
    return undefined;
  };
  const STRING = new Set(['string']);
  const title = mapped(conv.read, conv.table, CHAT_KEY.title, STRING, 'a string column', false);
  const role = mapped(msg.read, msg.table, CHAT_KEY.role, STRING, 'a string column', true);
  const content = mapped(msg.read, msg.table, CHAT_KEY.content, STRING, 'a string column', true);
  const createdAt = mapped(msg.read, msg.table, CHAT_KEY.createdAt, DATE_TIME, 'a date/time column', true);
  const fk = mapped(msg.read, msg.table, CHAT_KEY.conversationFk, new Set(['int', 'bigint', 'string', 'uuid', 'decimal']), 'a key column', true);
  if (fk && convKey && !referencesKey(msg.table, fk, conv.table, convKey, db)) {
    msg.read.problem(
      CHAT_KEY.conversationFk,
      `${msg.table.key}.${fk.dbName} does not reference ${conv.table.key}.${convKey.dbName}: declare a foreign key, or a join rule (${msg.table.key} { join: ${conv.table.dbName}(${fk.dbName} = ${convKey.dbName}) })`,
    );
  }
  if (problems.length > problemsBefore || !convKey || !msgKey || !role || !content || !createdAt || !fk) return undefined;
  return {
    conversations: {table: conv.table, key: convKey, ...(title ? {title} : {})},
    messages: {table: msg.table, key: msgKey, role, content, conversationFk: fk, createdAt},
  };
}

/** A declared foreign key (read from the database at load) or a `join` rule from the column to the key. */
function referencesKey(source: GqlTable, column: GqlColumn, target: GqlTable, key: GqlColumn, db: DbModel | undefined): boolean {
  const byLink = source.links.some(
    (link) => link.target === target.key && link.sourceColumns.length === 1 && link.sourceColumns[0] === column.dbName && link.targetColumns[0] === key.dbName,
  );
  if (byLink || !db) return byLink || !db;
  const dbTable = db.tables.find((table) => table.schema === source.schema && table.name === source.dbName);
  return (dbTable?.foreignKeys ?? []).some(
    (fk) => fk.columns.length === 1 && fk.columns[0] === column.dbName && fk.refSchema === target.schema && fk.refTable === target.dbName && fk.refColumns[0] === key.dbName,
  );
}

function connectorOf(table: GqlTable, read: PropertyReader): ChatConnector | undefined {
  const has = (key: string) => read.has(key);
  let types: ConnectorType[] = [];
  if (has(CHAT_KEY.connector)) {
    const listed = (read.list(CHAT_KEY.connector) ?? []).map((item) => item.toLowerCase());
    const unknown = listed.filter((item) => !(CONNECTOR_TYPES as readonly string[]).includes(item));
    if (listed.length === 0 || (read.props[CHAT_KEY.connector] ?? '').split(',').some((item) => item.trim() === ''))
      read.problem(CHAT_KEY.connector, `has an empty type: write ${CONNECTOR_TYPES.join(', ')} (or some of them), separated by commas`);
    if (unknown.length > 0)
      read.problem(CHAT_KEY.connector, `unknown connector type${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: chat-connector takes ${CONNECTOR_TYPES.join(', ')}`);
    types = CONNECTOR_TYPES.filter((type) => listed.includes(type));
  }
  const needs = (keys: string[], type: ConnectorType) => {
    if (types.includes(type)) return;
    for (const key of keys) if (has(key)) read.problem(key, `needs ${type} in chat-connector on the same table`);
  };
  needs([CHAT_KEY.mediaColumn, CHAT_KEY.mediaVision, CHAT_KEY.mediaCaption], 'media');
  needs([CHAT_KEY.planOperations], 'plan');
  let description: string | undefined;
  if (has(CHAT_KEY.toolDescription)) {
    description = read.text(CHAT_KEY.toolDescription);
    if (description === undefined) read.problem(CHAT_KEY.toolDescription, 'is present but empty: describe the tool, or leave the key out');
    if (types.length === 0) read.problem(CHAT_KEY.toolDescription, 'needs chat-connector on the same table (it describes the connector’s tools)');
  }
  if (types.length === 0) return undefined;
  if (table.hidden) read.problem(CHAT_KEY.connector, `${table.key} is hidden: a connector table must be published (remove visibility: hidden)`, false);

  let media: ChatConnector['media'];
  if (types.includes('media')) {
    const name = read.text(CHAT_KEY.mediaColumn);
    const column = columnOf(table, name);
    if (name === undefined)
      read.problem(has(CHAT_KEY.mediaColumn) ? CHAT_KEY.mediaColumn : CHAT_KEY.connector, 'media needs chat-media-column: the binary or string column it serves');
    else if (!column) read.problem(CHAT_KEY.mediaColumn, `${table.key} has no column ${name}`);
    else if (column.kind !== 'binary' && column.kind !== 'string')
      read.problem(CHAT_KEY.mediaColumn, `${table.key}.${column.dbName} is ${column.kind} (${column.dataType}): a media column is binary (bytes) or string (URLs)`);
    else if (column.hidden) read.problem(CHAT_KEY.mediaColumn, `${table.key}.${column.dbName} is hidden: the media column must be published`);
    const vision = read.has(CHAT_KEY.mediaVision) ? enabledFlag(read, CHAT_KEY.mediaVision) : false;
    const captionName = read.text(CHAT_KEY.mediaCaption);
    const caption = columnOf(table, captionName);
    if (read.has(CHAT_KEY.mediaCaption)) {
      if (captionName === undefined) read.problem(CHAT_KEY.mediaCaption, 'is empty: name a string column, or leave the key out');
      else if (!caption) read.problem(CHAT_KEY.mediaCaption, `${table.key} has no column ${captionName}`);
      else if (caption.kind !== 'string')
        read.problem(CHAT_KEY.mediaCaption, `${table.key}.${caption.dbName} is ${caption.kind} (${caption.dataType}): a caption column must be a string`);
      else if (caption.hidden) read.problem(CHAT_KEY.mediaCaption, `${table.key}.${caption.dbName} is hidden: the caption column must be published`);
    }
    if (column && (column.kind === 'binary' || column.kind === 'string') && !column.hidden)
      media = {column, vision, ...(caption && caption.kind === 'string' && !caption.hidden ? {caption} : {})};
  }
  let plan: ChatConnector['plan'];
  if (types.includes('plan')) {
    if (table.primaryKey.length === 0 || table.isView)
      read.problem(CHAT_KEY.connector, `plan needs a primary key: ${table.key} has none (a proposed change must name the row it touches)`, false);
    const listed = (read.list(CHAT_KEY.planOperations) ?? []).map((item) => item.toLowerCase());
    const unknown = listed.filter((item) => !(PLAN_OPERATIONS as readonly string[]).includes(item));
    if (!has(CHAT_KEY.planOperations))
      read.problem(CHAT_KEY.connector, `plan needs chat-plan-operations on ${table.key}: the operations it may propose (insert, update, delete; delete is never implied)`, false);
    else if (listed.length === 0) read.problem(CHAT_KEY.planOperations, 'names no operation: write insert, update, delete (or some of them)');
    if (unknown.length > 0)
      read.problem(CHAT_KEY.planOperations, `unknown operation${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: chat-plan-operations takes ${PLAN_OPERATIONS.join(', ')}`);
    const operations = PLAN_OPERATIONS.filter((op) => listed.includes(op));
    if (operations.length > 0 && table.primaryKey.length > 0) plan = {operations};
  }
  return {table, types, ...(media ? {media} : {}), ...(plan ? {plan} : {}), ...(description ? {description} : {})};
}

/** The same reading over a loaded model (its `meta` holds every property verbatim): what the endpoint serves. */
export function chatSchemaOf(model: GqlModel): ChatSchema {
  const columns = new Map<string, Record<string, string>>();
  for (const table of model.tables) for (const column of table.columns) columns.set(`${table.key}.${column.dbName}`, column.meta);
  return readChatSchema(model, {model: model.meta, tables: new Map(model.tables.map((table) => [table.key, table.meta])), columns}, []);
}
