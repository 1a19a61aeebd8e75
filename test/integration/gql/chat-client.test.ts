// The chat client the faces use against a running server (source/gql/chat/chat-client.ts): the
// real GraphQL server on SQLite with chat tables, its chat routes over HTTP and server-sent events,
// the agent loop against the model stand-in. What a face gets from it must be what it gets
// in-process: the same events, the same conversations, the same errors.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startModelEndpoint, type ModelEndpoint} from '../../../fixtures/model-endpoint/stand-in.js';
import {localChat, remoteChat, type DatabaseChat} from '../../../source/gql/chat/chat-client.js';
import type {ChatEvent} from '../../../source/gql/chat/chat-service.js';
import {openGqlService} from '../../../source/gql/service.js';
import type {GqlService, GqlSettings} from '../../../source/gql/types.js';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {CHAT_RULES, createChatTables} from '../../helpers/chat-tables.js';

const ANONYMOUS = {claims: {}, roles: [], anonymous: true} as const;

describe('the chat client over a running server', () => {
  let dir: string;
  let db: Knex;
  let model: ModelEndpoint;
  let server: GraphqlServer;
  let local: GqlService;
  let remote: DatabaseChat;

  const settings = (file: string): GqlSettings => ({
    provider: 'sqlite',
    connectionString: `Data Source=${file}`,
    path: '/graphql',
    playground: '/',
    disableAuth: true,
    metadata: [...CHAT_RULES, 'main.notes { chat-connector: explore, plan; chat-plan-operations: insert }'],
    http3: {enabled: false, httpsPort: 5001},
    jwt: {},
    cdc: {},
    chat: {api: 'messages', baseUrl: model.url, model: 'stand-in', apiKey: 'sk-client'},
    source: 'test',
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wb-chat-client-'));
    const file = join(dir, 'notes.sqlite');
    db = knex({client: 'better-sqlite3', connection: {filename: file}, useNullAsDefault: true});
    await createChatTables(db);
    await db.schema.createTable('notes', (t) => {
      t.increments('id');
      t.string('text', 200);
    });
    model = await startModelEndpoint({key: 'sk-client'});
    server = await startGraphqlServer({service: await openGqlService(settings(file), {poolMax: 2}), port: 0, playground: {js: '', css: ''}, warn: () => {}});
    local = await openGqlService(settings(file), {poolMax: 2});
    remote = remoteChat(new URL(`${server.url}/graphql`));
  });
  afterAll(async () => {
    await server?.close();
    await local?.close();
    await model?.close();
    await db?.destroy();
    rmSync(dir, {recursive: true, force: true});
  });

  const collect = async (chat: DatabaseChat, request: {conversationId?: number | string; message: string}) => {
    const events: ChatEvent[] = [];
    await chat.send(request, (event) => events.push(event));
    return events;
  };

  it('streams the same events as in-process, continues a conversation, lists it, and approves a plan', async () => {
    model.reply({text: ['Hel', 'lo.']});
    const first = await collect(remote, {message: 'hi'});
    expect(first.filter((event) => event.type === 'text').map((event) => (event as {text: string}).text)).toEqual(['Hel', 'lo.']);
    const done = first.at(-1) as Extract<ChatEvent, {type: 'done'}>;
    expect(done.type).toBe('done');

    model.reply({toolCalls: [{name: 'plan_notes', input: {summary: 'add a note', operations: [{op: 'insert', values: {text: 'buy milk'}}]}}]}, {text: 'Approve it.'});
    const second = await collect(remote, {conversationId: done.conversationId, message: 'add a note'});
    const plan = second.find((event) => event.type === 'plan') as Extract<ChatEvent, {type: 'plan'}>;
    expect(plan).toMatchObject({summary: 'add a note', operations: [{op: 'insert', values: {text: 'buy milk'}}]});
    expect(await db('notes')).toHaveLength(0);

    // Both faces see one conversation with every row.
    const listed = await remote.conversations();
    const inProcess = await localChat(local, {...ANONYMOUS, claims: {}, roles: []}).conversations();
    expect(listed).toEqual(inProcess);
    expect(listed).toHaveLength(1);
    expect(listed[0]!.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'plan', 'tool', 'assistant']);

    const approval = await remote.approvePlan(plan.planId);
    expect(approval).toMatchObject({planId: plan.planId, affected: 1});
    expect(await db('notes').select('text')).toEqual([{text: 'buy milk'}]);
    // The server's own error codes come through: approved once is a conflict, a missing plan not found.
    await expect(remote.approvePlan(plan.planId)).rejects.toMatchObject({code: 'conflict', message: expect.stringMatching(/already approved/)});
    await expect(remote.approvePlan(999_999)).rejects.toMatchObject({code: 'not_found', message: 'no plan 999999'});
    await expect(remote.approvePlan('not-a-number')).rejects.toMatchObject({code: 'invalid_argument'});
  });

  it('turns refusals before the stream into errors, and a model failing midway into the last event', async () => {
    await expect(collect(remote, {message: ''})).rejects.toMatchObject({code: 'invalid_argument', message: expect.stringMatching(/message is required/)});
    await expect(collect(remote, {conversationId: 424242, message: 'hello?'})).rejects.toMatchObject({code: 'not_found'});

    model.fault = 'drop';
    model.reply({text: ['partial ', 'answer']});
    const events = await collect(remote, {message: 'tell me'});
    model.fault = undefined;
    expect(events.at(-1)).toMatchObject({type: 'error'});
  });

  it('says a server that does not answer is not there', async () => {
    const gone = remoteChat(new URL('http://127.0.0.1:9/graphql'));
    await expect(gone.conversations()).rejects.toMatchObject({code: 'daemon_not_connected'});
    await expect(collect(gone, {message: 'hi'})).rejects.toMatchObject({code: 'daemon_not_connected'});
  });
});
