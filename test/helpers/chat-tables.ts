// The smallest chat schema a served database can have (spec 3's chat tables, no tenant): the tests
// of the chat's faces (panes, CLI, client, tmux) create it in their SQLite file and add the rules.
import type {Knex} from 'knex';

export async function createChatTables(db: Knex): Promise<void> {
  await db.schema.createTable('conversations', (t) => {
    t.increments('id');
    t.string('title', 200);
  });
  await db.schema.createTable('messages', (t) => {
    t.increments('id');
    t.integer('conversation_id').notNullable().references('id').inTable('conversations');
    t.string('role', 20).notNullable();
    t.text('content').notNullable();
    t.dateTime('created_at').notNullable();
  });
}

/** The metadata rules marking those tables (SQLite's schema `main`). */
export const CHAT_RULES = [
  'main.conversations { chat-conversations: enabled; chat-title: title }',
  'main.messages { chat-messages: enabled; chat-role: role; chat-content: content; chat-conversation-fk: conversation_id; chat-created-at: created_at }',
];
