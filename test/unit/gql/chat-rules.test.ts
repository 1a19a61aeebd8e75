// The chat schema and chat connector keys at model load: every failure the spec lists is a
// ModelProblem naming its rule, and a valid model reads back as the tables and tools it declares.
import {describe, expect, it} from 'vitest';
import {chatSchemaOf} from '../../../source/gql/chat/chat-schema.js';
import {modelFrom} from '../../../source/gql/load-model.js';
import type {DbModel} from '../../../source/gql/types.js';
import {column, table} from './chinook-db-model.js';

const id = (name: string) => column(name, 'int', {nullable: false, isIdentity: true});

function db(): DbModel {
  return {
    provider: 'sqlite',
    defaultSchema: 'main',
    procedures: [],
    tables: [
      table('conversations', [id('id'), column('title'), column('tenant_id'), column('started', 'datetime')], ['id']),
      table(
        'messages',
        [id('id'), column('conversation_id', 'int'), column('role'), column('body'), column('created_at', 'datetime'), column('size', 'int')],
        ['id'],
        [{columns: ['conversation_id'], refTable: 'conversations', refColumns: ['id']}],
      ),
      table('loose_messages', [id('id'), column('conversation_id', 'int'), column('role'), column('body'), column('created_at', 'datetime')], ['id']),
      table('photos', [id('id'), column('tenant_id'), column('image', 'binary'), column('url'), column('caption'), column('taken', 'datetime'), column('secret')], ['id']),
      table('readings', [column('sensor'), column('value', 'int')], []),
    ],
  };
}

const CONV = 'main.conversations { chat-conversations: enabled; chat-title: title }';
const MSG = 'main.messages { chat-messages: enabled; chat-role: role; chat-content: body; chat-conversation-fk: conversation_id; chat-created-at: created_at }';

function problems(...rules: string[]): string {
  const result = modelFrom(db(), rules);
  expect(result.problems.length).toBeGreaterThan(0);
  return result.problems.map((problem) => `${problem.message} [${problem.rule ?? ''}]`).join('\n');
}

describe('the chat schema at model load', () => {
  it('a valid schema reads back as its tables and mapped columns, with no problem', () => {
    const result = modelFrom(db(), [CONV, MSG]);
    expect(result.problems).toEqual([]);
    const chat = chatSchemaOf(result.model);
    expect(chat.tables?.conversations.table.key).toBe('main.conversations');
    expect(chat.tables?.conversations.title?.dbName).toBe('title');
    expect(chat.tables?.messages).toMatchObject({
      role: {dbName: 'role'},
      content: {dbName: 'body'},
      conversationFk: {dbName: 'conversation_id'},
      createdAt: {dbName: 'created_at'},
    });
  });

  it('a join rule stands in for a declared foreign key', () => {
    const loose = MSG.replace('main.messages', 'main.loose_messages');
    expect(
      modelFrom(db(), [CONV, loose])
        .problems.map((p) => p.message)
        .join('\n'),
    ).toMatch(/loose_messages.conversation_id does not reference main.conversations.id/);
    expect(modelFrom(db(), [CONV, loose, 'main.loose_messages { join: conversations(conversation_id = id) }']).problems).toEqual([]);
  });

  const failures: Array<[string, string[], RegExp]> = [
    ['conversations without messages', [CONV], /no table sets chat-messages: a chat schema needs exactly one of each/],
    ['messages without conversations', [MSG], /no table sets chat-conversations/],
    ['two conversations tables', [CONV, MSG, 'main.photos { chat-conversations: enabled }'], /main.conversations, main.photos all set chat-conversations: a model has exactly one/],
    ['two messages tables', [CONV, MSG, MSG.replace('main.messages', 'main.loose_messages')], /all set chat-messages: a model has exactly one messages table/],
    ['a hidden conversations table', [CONV, MSG, 'main.conversations { visibility: hidden }'], /main.conversations is hidden: the chat tables must be published/],
    ['a hidden messages table', [CONV, MSG, 'main.messages { visibility: hidden }'], /main.messages is hidden/],
    ['a title that is not a column', [CONV.replace('chat-title: title', 'chat-title: name'), MSG], /chat-title: "name": main.conversations has no column name/],
    ['a title that is not a string', [CONV.replace('chat-title: title', 'chat-title: started'), MSG], /started is datetime \(datetime\): it must be a string column/],
    ['a title on another table', [CONV, MSG, 'main.photos { chat-title: caption }'], /chat-title: "caption": needs chat-conversations: enabled/],
    ['a mapping key missing', [CONV, MSG.replace('chat-created-at: created_at', '')], /needs the full mapping: chat-created-at is missing/],
    [
      'a role that is not a string',
      [CONV, MSG.replace('chat-role: role', 'chat-role: size')],
      /chat-role: "size": main.messages.size is int \(integer\): it must be a string column/,
    ],
    ['content naming no column', [CONV, MSG.replace('chat-content: body', 'chat-content: text')], /chat-content: "text": main.messages has no column text/],
    [
      'created-at not a date/time',
      [CONV, MSG.replace('chat-created-at: created_at', 'chat-created-at: role')],
      /main.messages.role is string \(nvarchar\): it must be a date\/time column/,
    ],
    [
      'a fk that references nothing',
      [CONV, MSG.replace('chat-conversation-fk: conversation_id', 'chat-conversation-fk: size')],
      /main.messages.size does not reference main.conversations.id/,
    ],
    ['a mapping key without chat-messages', [CONV, MSG, 'main.photos { chat-role: caption }'], /chat-role: "caption": needs chat-messages: enabled/],
    ['an unknown chat key', [CONV, MSG, 'main.messages { chat-author: role }'], /chat-author is not a chat key the spec knows/],
    ['a chat key on a column', [CONV, MSG, 'main.messages.role { chat-role: role }'], /chat-role applies to a table, not to a column/],
    ['a chat key on the model', [CONV, MSG, ':root { chat-messages: enabled }'], /chat keys apply to a table, not to the model/],
  ];
  it.each(failures)('%s fails at load, naming the rule', (_name, rules, message) => {
    const text = problems(...rules);
    expect(text).toMatch(message);
    expect(text).toMatch(/\[main\.|\[:root/);
  });
});

describe('chat connectors at model load', () => {
  it('explore, media and plan read back with their options', () => {
    const result = modelFrom(db(), [
      'main.photos { chat-connector: explore, media, plan; chat-media-column: image; chat-media-vision: enabled; chat-media-caption: caption; chat-plan-operations: insert, update; chat-tool-description: Holiday photos }',
      'main.readings { chat-connector: explore }',
    ]);
    expect(result.problems).toEqual([]);
    const [photos, readings] = chatSchemaOf(result.model).connectors;
    expect(photos).toMatchObject({
      types: ['explore', 'media', 'plan'],
      media: {column: {dbName: 'image'}, vision: true, caption: {dbName: 'caption'}},
      plan: {operations: ['insert', 'update']},
      description: 'Holiday photos',
    });
    expect(readings?.types).toEqual(['explore']);
    expect(chatSchemaOf(result.model).tables).toBeUndefined();
  });

  const failures: Array<[string, string, RegExp]> = [
    ['an unknown type', 'main.photos { chat-connector: explore, browse }', /unknown connector type browse: chat-connector takes explore, media, plan/],
    ['an empty type list', 'main.photos { chat-connector: }', /chat-connector: "": has an empty type/],
    ['an empty token', 'main.photos { chat-connector: explore,,media; chat-media-column: image }', /has an empty type/],
    ['media keys without media', 'main.photos { chat-connector: explore; chat-media-column: image }', /chat-media-column: "image": needs media in chat-connector/],
    ['vision without media', 'main.photos { chat-media-vision: enabled }', /chat-media-vision: "enabled": needs media in chat-connector/],
    ['caption without media', 'main.photos { chat-connector: explore; chat-media-caption: caption }', /chat-media-caption: "caption": needs media/],
    ['plan operations without plan', 'main.photos { chat-connector: explore; chat-plan-operations: insert }', /chat-plan-operations: "insert": needs plan in chat-connector/],
    ['media without its column', 'main.photos { chat-connector: media }', /media needs chat-media-column/],
    ['a media column that does not exist', 'main.photos { chat-connector: media; chat-media-column: picture }', /main.photos has no column picture/],
    [
      'a media column neither binary nor string',
      'main.photos { chat-connector: media; chat-media-column: taken }',
      /main.photos.taken is datetime \(datetime\): a media column is binary \(bytes\) or string \(URLs\)/,
    ],
    [
      'a caption that is not a string',
      'main.photos { chat-connector: media; chat-media-column: url; chat-media-caption: id }',
      /main.photos.id is int \(integer\): a caption column must be a string/,
    ],
    ['plan on a keyless table', 'main.readings { chat-connector: plan; chat-plan-operations: insert }', /plan needs a primary key: main.readings has none/],
    ['plan without operations', 'main.photos { chat-connector: plan }', /plan needs chat-plan-operations on main.photos/],
    [
      'plan with unknown operations',
      'main.photos { chat-connector: plan; chat-plan-operations: insert, truncate }',
      /unknown operation truncate: chat-plan-operations takes insert, update, delete/,
    ],
    ['plan with an empty operation list', 'main.photos { chat-connector: plan; chat-plan-operations: }', /chat-plan-operations: "": names no operation/],
    ['an empty tool description', 'main.photos { chat-connector: explore; chat-tool-description: ` ` }', /chat-tool-description: " ": is present but empty/],
    ['an unknown chat-connector-* key', 'main.photos { chat-connector: explore; chat-connector-mode: fast }', /chat-connector-mode is not a chat-connector key the spec knows/],
    ['an unknown chat-media-* key', 'main.photos { chat-connector: media; chat-media-column: image; chat-media-size: 3 }', /chat-media-size is not a chat-media key/],
    ['an unknown chat-plan-* key', 'main.photos { chat-connector: plan; chat-plan-operations: insert; chat-plan-approver: ann }', /chat-plan-approver is not a chat-plan key/],
    ['a connector on a hidden table', 'main.photos { chat-connector: explore; visibility: hidden }', /main.photos is hidden: a connector table must be published/],
  ];
  it.each(failures)('%s fails at load, naming the rule', (_name, rule, message) => {
    const text = problems(rule);
    expect(text).toMatch(message);
    expect(text).toContain(`[${rule}]`);
  });
});
