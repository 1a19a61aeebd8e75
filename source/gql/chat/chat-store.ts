import {randomUUID} from 'node:crypto';
import {WorkbenchError} from '../../core/errors.js';
import type {GqlColumn, GqlService, Row, UserContext} from '../types.js';
import type {ChatTables} from './chat-schema.js';
import {insertRow, readRows} from './table-access.js';

/** What a messages row's role column holds: the model's turns, tools, plans and their approvals, failures. */
export type MessageRole = 'user' | 'assistant' | 'tool' | 'plan' | 'approval' | 'error';

export type ConversationId = number | string;

export interface StoredMessage {
  id: number | string;
  role: MessageRole | string;
  content: string;
  createdAt: string;
}

export interface StoredConversation {
  id: ConversationId;
  title?: string;
  messages: StoredMessage[];
}

/** `YYYY-MM-DD HH:MM:SS.mmm` in UTC: a timestamp every provider's date/time column takes as written. */
export function timestampNow(): string {
  return new Date().toISOString().replace('T', ' ').replace('Z', '');
}

/** A key the database does not fill (no identity, no default) gets a UUID: chat rows are created here. */
function newKey(key: GqlColumn): Row {
  return key.isIdentity || key.hasDefault || (key.kind !== 'string' && key.kind !== 'uuid') ? {} : {[key.name]: randomUUID()};
}

/**
 * The conversations and messages tables, read and written for one user through the service's
 * GraphQL path: the conversations table's row rules decide which conversations exist for the user
 * (another tenant's is simply not found), the messages table's its rows.
 */
export class ChatStore {
  constructor(
    private readonly service: GqlService,
    readonly tables: ChatTables,
  ) {}

  /** A client's conversation id in the key column's type; a value of the wrong shape is the client's mistake. */
  parseConversationId(value: unknown): ConversationId {
    const key = this.tables.conversations.key;
    if (key.kind === 'int') {
      const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
      if (typeof number === 'number' && Number.isSafeInteger(number) && number > 0) return number;
      throw new WorkbenchError('invalid_argument', `conversationId must be a positive whole number (got ${JSON.stringify(value)})`);
    }
    if ((typeof value === 'string' && value.trim() !== '' && value.length <= 200) || (typeof value === 'number' && Number.isFinite(value))) return String(value);
    throw new WorkbenchError('invalid_argument', `conversationId must be a non-empty string (got ${JSON.stringify(value)})`);
  }

  /** The conversation if the user may read it; a 404 otherwise, whether it is missing or someone else's. */
  async conversation(user: UserContext, id: ConversationId): Promise<{id: ConversationId; title?: string}> {
    const {conversations} = this.tables;
    const columns = [conversations.key.name, ...(conversations.title ? [conversations.title.name] : [])];
    const {rows} = await readRows(this.service, user, conversations.table, {columns, filter: {[conversations.key.name]: {_eq: id}}, limit: 1});
    const row = rows[0];
    if (!row) throw new WorkbenchError('not_found', `no conversation ${id}`);
    return {
      id: row[conversations.key.name] as ConversationId,
      ...(conversations.title && row[conversations.title.name] != null ? {title: String(row[conversations.title.name])} : {}),
    };
  }

  /** A new conversation row of the user (tenant and auto-filter columns are forced by the service). */
  async createConversation(user: UserContext, title: string): Promise<ConversationId> {
    const {conversations} = this.tables;
    return insertRow(this.service, user, conversations.table, {...newKey(conversations.key), ...(conversations.title ? {[conversations.title.name]: title} : {})});
  }

  async messages(user: UserContext, conversationIds: ConversationId[]): Promise<Map<string, StoredMessage[]>> {
    const {messages} = this.tables;
    const byConversation = new Map<string, StoredMessage[]>(conversationIds.map((id) => [String(id), []]));
    if (conversationIds.length === 0) return byConversation;
    const {rows} = await readRows(this.service, user, messages.table, {
      columns: [messages.key.name, messages.conversationFk.name, messages.role.name, messages.content.name, messages.createdAt.name],
      filter: {[messages.conversationFk.name]: {_in: conversationIds}},
      sort: [`${messages.createdAt.name}_asc`, `${messages.key.name}_asc`],
      limit: -1,
    });
    for (const row of rows) {
      byConversation.get(String(row[messages.conversationFk.name]))?.push({
        id: row[messages.key.name] as number | string,
        role: String(row[messages.role.name]),
        content: String(row[messages.content.name] ?? ''),
        createdAt: String(row[messages.createdAt.name]),
      });
    }
    return byConversation;
  }

  async addMessage(user: UserContext, conversationId: ConversationId, role: MessageRole, content: string): Promise<number | string> {
    const {messages} = this.tables;
    return insertRow(this.service, user, messages.table, {
      ...newKey(messages.key),
      [messages.conversationFk.name]: conversationId,
      [messages.role.name]: role,
      [messages.content.name]: content,
      [messages.createdAt.name]: timestampNow(),
    });
  }

  /** One message row by its key, if the user may read it. */
  async message(user: UserContext, id: number | string): Promise<(StoredMessage & {conversationId: ConversationId}) | undefined> {
    const {messages} = this.tables;
    const {rows} = await readRows(this.service, user, messages.table, {
      columns: [messages.key.name, messages.conversationFk.name, messages.role.name, messages.content.name, messages.createdAt.name],
      filter: {[messages.key.name]: {_eq: id}},
      limit: 1,
    });
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: row[messages.key.name] as number | string,
      conversationId: row[messages.conversationFk.name] as ConversationId,
      role: String(row[messages.role.name]),
      content: String(row[messages.content.name] ?? ''),
      createdAt: String(row[messages.createdAt.name]),
    };
  }

  /** The user's conversations, newest first, each with its messages in order. */
  async list(user: UserContext, limit = 50): Promise<StoredConversation[]> {
    const {conversations} = this.tables;
    const columns = [conversations.key.name, ...(conversations.title ? [conversations.title.name] : [])];
    const {rows} = await readRows(this.service, user, conversations.table, {columns, sort: [`${conversations.key.name}_desc`], limit});
    const ids = rows.map((row) => row[conversations.key.name] as ConversationId);
    const messages = await this.messages(user, ids);
    return rows.map((row) => ({
      id: row[conversations.key.name] as ConversationId,
      ...(conversations.title && row[conversations.title.name] != null ? {title: String(row[conversations.title.name])} : {}),
      messages: messages.get(String(row[conversations.key.name])) ?? [],
    }));
  }
}
