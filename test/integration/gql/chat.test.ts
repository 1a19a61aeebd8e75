// The GraphQL service's chat on SQLite, PostgreSQL and MariaDB: the real service (introspected
// model, GraphQL read and write paths), the agent loop against the stand-in model endpoint of
// fixtures/model-endpoint scripted to call the connector tools, and the HTTP server with tokens
// from the stand-in identity provider. Two tenants (a: ann, b: bob) share every table.
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {startModelEndpoint, type ModelEndpoint} from '../../../fixtures/model-endpoint/stand-in.js';
import {startOidcIssuer, type OidcIssuer} from '../../../fixtures/oidc-issuer/issuer.js';
import {openChat, type Chat, type ChatEvent} from '../../../source/gql/chat/chat-service.js';
import {openGqlService} from '../../../source/gql/service.js';
import type {GqlService, GqlSettings, UserContext} from '../../../source/gql/types.js';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {gqlDatabases, settingsFor, type GqlFixture} from '../../helpers/gql-databases.js';

const databases = await gqlDatabases();
const ann: UserContext = {claims: {sub: 'ann', tenant_id: 'a'}, roles: [], auditKey: 'ann', anonymous: false};
const bob: UserContext = {claims: {sub: 'bob', tenant_id: 'b'}, roles: [], auditKey: 'bob', anonymous: false};
const AUDIENCE = 'workbench-chat';
// The smallest PNG there is (1×1, transparent): file-type knows it by its signature.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000050001' + '0d0a2db40000000049454e44ae426082', 'hex');

function schemaOf(fixture: GqlFixture): string {
  if (fixture.provider === 'sqlite') return 'main';
  if (fixture.provider === 'postgres') return 'public';
  return fixture.database;
}

async function collect(chat: Chat, user: UserContext, request: {conversationId?: unknown; message?: unknown}): Promise<ChatEvent[]> {
  const events: ChatEvent[] = [];
  const accepted = await chat.send(user, request);
  await accepted.run((event) => events.push(event));
  return events;
}

const last = (events: ChatEvent[]) => events.at(-1)!;
const conversationOf = (events: ChatEvent[]) => (last(events) as {conversationId: number}).conversationId;

describe.each(databases)('the chat in $kind', (database) => {
  const maybe = database.unavailable ? it.skip : it;
  let fixture: GqlFixture | undefined;
  let db: Knex;
  let model: ModelEndpoint;
  let issuer: OidcIssuer;
  let service: GqlService;
  let chat: Chat;
  let server: GraphqlServer;
  let schema: string;
  const services: GqlService[] = [];

  const rules = (s: string) => [
    `${s}.conversations { chat-conversations: enabled; chat-title: title; tenant-filter: tenant_id }`,
    `${s}.messages { chat-messages: enabled; chat-role: role; chat-content: content; chat-conversation-fk: conversation_id; chat-created-at: created_at; tenant-filter: tenant_id }`,
    `${s}.photos { tenant-filter: tenant_id; chat-connector: explore, media, plan; chat-media-column: image; chat-media-vision: enabled; chat-media-caption: caption; chat-plan-operations: insert, update; chat-tool-description: Holiday photos }`,
    `${s}.photos.secret { visibility: hidden }`,
    `${s}.links { tenant-filter: tenant_id; chat-connector: media; chat-media-column: url; chat-media-vision: enabled }`,
  ];
  const settings = (api: 'messages' | 'chat-completions', extra: Partial<GqlSettings> = {}): GqlSettings => ({
    ...settingsFor(fixture!, rules(schema)),
    chat: {api, baseUrl: api === 'messages' ? model.url : `${model.url}/v1`, model: 'stand-in', apiKey: 'sk-chat'},
    ...extra,
  });
  const open = async (api: 'messages' | 'chat-completions', extra: Partial<GqlSettings> = {}) => {
    const opened = await openGqlService(settings(api, extra), {poolMax: 2});
    services.push(opened);
    return opened;
  };
  const photos = () => chat.connectors.find((connector) => connector.table.dbName === 'photos')!.table.name;
  const roles = async (conversationId: number) => (await db('messages').where({conversation_id: conversationId}).orderBy('id')).map((row: {role: string}) => row.role);

  beforeAll(async () => {
    if (database.unavailable) {
      console.warn(`skipping the chat tests on ${database.kind}: ${database.unavailable}`);
      return;
    }
    fixture = await database.createEmpty();
    db = knex(fixture.knexConfig);
    schema = schemaOf(fixture);
    await db.schema.createTable('conversations', (t) => {
      t.increments('id').primary();
      t.string('tenant_id', 20).notNullable();
      t.string('title', 200);
    });
    await db.schema.createTable('messages', (t) => {
      t.increments('id').primary();
      t.integer('conversation_id').unsigned().notNullable().references('id').inTable('conversations');
      t.string('tenant_id', 20).notNullable();
      t.string('role', 20).notNullable();
      t.text('content').notNullable();
      t.dateTime('created_at').notNullable();
    });
    await db.schema.createTable('photos', (t) => {
      t.increments('id').primary();
      t.string('tenant_id', 20).notNullable();
      t.string('caption', 200);
      t.string('secret', 200);
      t.binary('image');
    });
    await db.schema.createTable('links', (t) => {
      t.increments('id').primary();
      t.string('tenant_id', 20).notNullable();
      t.string('url', 300);
    });
    await db('links').insert([{tenant_id: 'a', url: 'https://images.example/beach.png'}]);
    model = await startModelEndpoint({key: 'sk-chat'});
    issuer = await startOidcIssuer();
    service = await open('messages');
    chat = openChat(service)!;
    const served = await open('messages', {disableAuth: false, jwt: {authority: issuer.authority, audience: AUDIENCE}});
    server = await startGraphqlServer({service: served, port: 0, playground: {js: '', css: ''}, warn: () => {}});
  });
  afterAll(async () => {
    await server?.close();
    for (const opened of services) await opened.close().catch(() => {});
    await model?.close();
    await issuer?.close();
    await db?.destroy();
    await fixture?.drop();
  });
  beforeEach(async () => {
    if (!fixture) return;
    model.fault = undefined;
    await db('photos').del();
    await db('photos').insert([
      {id: 1, tenant_id: 'a', caption: 'beach', secret: 'ann-secret', image: PNG},
      {id: 2, tenant_id: 'a', caption: 'hills', secret: 'ann-secret-2', image: null},
      {id: 3, tenant_id: 'b', caption: 'globex office', secret: 'bob-secret', image: PNG},
    ]);
    // Rows written with their ids leave PostgreSQL's sequence behind: the service's inserts would collide.
    if (fixture.provider === 'postgres') await db.raw(`select setval(pg_get_serial_sequence('photos', 'id'), 100)`);
  });

  maybe('a turn is stored (user, answer), the conversation titled by its first message; the next turn sends the history back', async () => {
    model.reply({text: ['Hel', 'lo']});
    const first = await collect(chat, ann, {message: 'hi there'});
    expect(first.filter((event) => event.type === 'text').map((event) => (event as {text: string}).text)).toEqual(['Hel', 'lo']);
    expect(last(first)).toMatchObject({type: 'done'});
    const id = conversationOf(first);
    expect(await db('conversations').where({id}).first()).toMatchObject({title: 'hi there', tenant_id: 'a'});
    expect(await roles(id)).toEqual(['user', 'assistant']);

    model.reply({text: 'again'});
    const before = model.requests.length;
    expect(last(await collect(chat, ann, {conversationId: id, message: 'and now?'}))).toEqual({type: 'done', conversationId: id});
    // chat-tool-description leads each of the table's tool descriptions.
    const described = (model.requests[before]!.body.tools as Array<{name: string; description: string}>).filter((item) => item.name.endsWith(`_${photos()}`));
    expect(described.map((item) => item.name).sort()).toEqual([`explore_${photos()}`, `media_${photos()}`, `plan_${photos()}`]);
    for (const item of described) expect(item.description).toMatch(/^Holiday photos\n\n/);
    const sent = model.requests[before]!.body.messages as Array<{role: string; content: Array<{text?: string}>}>;
    expect(sent.map((message) => [message.role, message.content.map((block) => block.text).join('')])).toEqual([
      ['user', 'hi there'],
      ['assistant', 'Hello'],
      ['user', 'and now?'],
    ]);
    const listed = await chat.conversations(ann);
    expect(listed.find((conversation) => conversation.id === id)?.messages.map((message) => [message.role, message.content])).toEqual([
      ['user', 'hi there'],
      ['assistant', 'Hello'],
      ['user', 'and now?'],
      ['assistant', 'again'],
    ]);
    // Bob's tenant does not see ann's conversation: it does not exist for him.
    await expect(chat.send(bob, {conversationId: id, message: 'peek'})).rejects.toMatchObject({code: 'not_found', message: `no conversation ${id}`});
    expect((await chat.conversations(bob)).map((conversation) => conversation.id)).not.toContain(id);
  });

  maybe('explore reads through the row rules: another tenant’s rows and a hidden column give nothing of theirs', async () => {
    const tool = `explore_${photos()}`;
    model.reply(
      {toolCalls: [{name: tool, input: {columns: ['id', 'caption'], sort: ['id_asc']}}]},
      {toolCalls: [{name: tool, input: {columns: ['id'], filter: {id: {_eq: 3}}}}]},
      {toolCalls: [{name: tool, input: {columns: ['id', 'secret']}}]},
      {toolCalls: [{name: tool, input: {filter: {secret: {_eq: 'bob-secret'}}}}]},
      {text: 'two photos'},
    );
    const events = await collect(chat, ann, {message: 'which photos do I have?'});
    const tools = events.filter((event) => event.type === 'tool') as Array<Extract<ChatEvent, {type: 'tool'}>>;
    expect(tools).toHaveLength(4);
    expect(JSON.parse(tools[0]!.result)).toEqual({
      total: 2,
      rows: [
        {id: 1, caption: 'beach'},
        {id: 2, caption: 'hills'},
      ],
    });
    expect(JSON.parse(tools[1]!.result)).toEqual({total: 0, rows: []});
    expect(tools[2]).toMatchObject({isError: true, result: expect.stringMatching(/^unknown column secret: /)});
    expect(tools[3]).toMatchObject({isError: true, result: expect.stringMatching(/^unknown column secret: /)});
    // What the model was told (every tool result it received) holds nothing of bob's rows or the hidden column.
    const told = model.requests.flatMap((request) => request.body.messages).flatMap((message: {content: unknown}) => (Array.isArray(message.content) ? message.content : []));
    const results = JSON.stringify(told.filter((block: {type: string}) => block.type === 'tool_result'));
    expect(results).toContain('beach');
    expect(results).not.toMatch(/globex office|bob-secret|ann-secret/);
    expect(last(events)).toMatchObject({type: 'done'});
    // Each tool call is a stored row, after the assistant turn that asked for it.
    expect(await roles(conversationOf(events))).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
  });

  for (const api of ['messages', 'chat-completions'] as const) {
    maybe(`media with vision reaches the model as an image block (${api}); another tenant’s row is not found`, async () => {
      const viaApi = api === 'messages' ? chat : openChat(await open(api))!;
      const tool = `media_${photos()}`;
      model.reply(
        {
          toolCalls: [
            {name: tool, input: {id: 1}},
            {name: tool, input: {id: 3}},
          ],
        },
        {text: 'a beach'},
      );
      const before = model.requests.length;
      const events = await collect(viaApi, ann, {message: 'show photo 1'});
      const tools = events.filter((event) => event.type === 'tool') as Array<Extract<ChatEvent, {type: 'tool'}>>;
      expect(JSON.parse(tools[0]!.result)).toEqual({caption: 'beach', mediaType: 'image/png', bytes: PNG.length});
      expect(tools[1]).toMatchObject({isError: true, result: 'no photos row with id 3'});
      const body = model.requests[before + 1]!.body;
      const data = PNG.toString('base64');
      if (api === 'messages') {
        const results = body.messages.flatMap((message: {content: unknown}) => (Array.isArray(message.content) ? message.content : []));
        const first = results.find((block: {type: string; tool_use_id?: string}) => block.type === 'tool_result');
        expect(first.content).toEqual([
          {type: 'text', text: tools[0]!.result},
          {type: 'image', source: {type: 'base64', media_type: 'image/png', data}},
        ]);
      } else {
        const images = body.messages.filter((message: {role: string; content: unknown}) => message.role === 'user' && Array.isArray(message.content));
        expect(images.at(-1).content).toContainEqual({type: 'image_url', image_url: {url: `data:image/png;base64,${data}`}});
      }
      expect(JSON.stringify(model.requests[before + 1]!.body)).not.toContain('globex office');
    });
  }

  maybe('a string media column serves its URL, as a URL image with vision', async () => {
    const links = chat.connectors.find((connector) => connector.table.dbName === 'links')!;
    model.reply({toolCalls: [{name: `media_${links.table.name}`, input: {id: 1}}]}, {text: 'a link'});
    const before = model.requests.length;
    const events = await collect(chat, ann, {message: 'show link 1'});
    expect(events.find((event) => event.type === 'tool')).toMatchObject({isError: false, result: JSON.stringify({url: 'https://images.example/beach.png'})});
    const blocks = model.requests[before + 1]!.body.messages.flatMap((message: {content: unknown}) => (Array.isArray(message.content) ? message.content : []));
    const result = blocks.find((block: {type: string}) => block.type === 'tool_result');
    expect(result.content).toContainEqual({type: 'image', source: {type: 'url', url: 'https://images.example/beach.png'}});
    // Bob's tenant has no such row.
    model.reply({toolCalls: [{name: `media_${links.table.name}`, input: {id: 1}}]}, {text: 'none'});
    const his = await collect(chat, bob, {message: 'show link 1'});
    expect(his.find((event) => event.type === 'tool')).toMatchObject({isError: true, result: `no ${links.table.name} row with id 1`});
  });

  maybe('a plan is stored, not run, until its user approves it; then it runs with the approver’s rules and the approval is a row', async () => {
    const tool = `plan_${photos()}`;
    model.reply(
      {
        toolCalls: [
          {
            name: tool,
            input: {
              summary: 'rename and add',
              operations: [
                {op: 'update', values: {id: 1, caption: 'Renamed beach'}},
                {op: 'insert', values: {caption: 'New photo'}},
              ],
            },
          },
        ],
      },
      {text: 'Approve the plan to apply it.'},
    );
    const events = await collect(chat, ann, {message: 'rename photo 1 and add one'});
    const plan = events.find((event) => event.type === 'plan') as Extract<ChatEvent, {type: 'plan'}>;
    expect(plan).toMatchObject({summary: 'rename and add', operations: [{op: 'update'}, {op: 'insert'}]});
    expect(events.find((event) => event.type === 'tool')).toMatchObject({isError: false, result: expect.stringMatching(new RegExp(`^plan ${plan.planId} proposed`))});
    // Proposed is not done.
    expect((await db('photos').where({id: 1}).first()).caption).toBe('beach');
    expect(await db('photos').where({caption: 'New photo'})).toHaveLength(0);
    // Another tenant cannot approve (the plan is not theirs to see), and nothing runs.
    await expect(chat.approvePlan(bob, String(plan.planId))).rejects.toMatchObject({code: 'not_found'});
    expect((await db('photos').where({id: 1}).first()).caption).toBe('beach');
    // A row that is not a plan is not approvable.
    const userRow = (await db('messages')
      .where({role: 'user', conversation_id: conversationOf(events)})
      .first()) as {id: number};
    await expect(chat.approvePlan(ann, userRow.id)).rejects.toMatchObject({code: 'not_found', message: `no plan ${userRow.id}`});

    // Two approvals at once (a double click): one runs the plan, the other is told it already ran.
    const [first, second] = await Promise.allSettled([chat.approvePlan(ann, String(plan.planId)), chat.approvePlan(ann, plan.planId)]);
    expect(first).toMatchObject({status: 'fulfilled'});
    expect(second).toMatchObject({status: 'rejected', reason: {code: 'conflict'}});
    const approval = (first as PromiseFulfilledResult<Awaited<ReturnType<typeof chat.approvePlan>>>).value;
    expect(approval).toMatchObject({planId: plan.planId, approvedBy: 'ann', affected: 2});
    expect(await db('photos').where({caption: 'New photo'})).toHaveLength(1);
    expect((await db('photos').where({id: 1}).first()).caption).toBe('Renamed beach');
    expect(await db('photos').where({caption: 'New photo'}).select('tenant_id')).toEqual([{tenant_id: 'a'}]);
    const rows = await db('messages')
      .where({conversation_id: conversationOf(events)})
      .orderBy('id');
    expect(rows.map((row: {role: string}) => row.role)).toEqual(['user', 'assistant', 'plan', 'tool', 'assistant', 'approval']);
    expect(JSON.parse(rows.at(-1).content)).toMatchObject({planId: plan.planId, approvedBy: 'ann', affected: 2});
    await expect(chat.approvePlan(ann, String(plan.planId))).rejects.toMatchObject({code: 'conflict', message: expect.stringMatching(/already approved by ann/)});
  });

  maybe('a delete is refused when chat-plan-operations does not list it: no plan stored, the row stays', async () => {
    const tool = `plan_${photos()}`;
    model.reply({toolCalls: [{name: tool, input: {summary: 'drop it', operations: [{op: 'delete', values: {id: 2}}]}}]}, {text: 'I cannot delete.'});
    const events = await collect(chat, ann, {message: 'delete photo 2'});
    expect(events.find((event) => event.type === 'tool')).toMatchObject({
      isError: true,
      result: expect.stringMatching(/^delete is not allowed on photos: chat-plan-operations lists insert, update/),
    });
    expect(events.some((event) => event.type === 'plan')).toBe(false);
    expect(await roles(conversationOf(events))).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(await db('photos').where({id: 2})).toHaveLength(1);
  });

  maybe('an endpoint that fails midway: the user’s message and an error row are stored, no half answer; the stream ends with error', async () => {
    model.fault = 'drop';
    model.reply({text: ['Half ', 'of an ', 'answer']});
    const events = await collect(chat, ann, {message: 'tell me everything'});
    expect(last(events)).toMatchObject({type: 'error', conversationId: expect.anything()});
    expect(events.some((event) => event.type === 'done')).toBe(false);
    const id = (last(events) as {conversationId: number}).conversationId;
    const rows = await db('messages').where({conversation_id: id}).orderBy('id');
    expect(rows.map((row: {role: string}) => row.role)).toEqual(['user', 'error']);
    expect(JSON.stringify(rows)).not.toContain('Half');
    // The conversation goes on: the failed turn is not sent back as an answer.
    model.fault = undefined;
    model.reply({text: 'Here it is.'});
    const before = model.requests.length;
    expect(last(await collect(chat, ann, {conversationId: id, message: 'try again'}))).toMatchObject({type: 'done'});
    expect(JSON.stringify(model.requests[before]!.body.messages)).not.toContain('Half');
  });

  maybe('bad input is named: no message, a bad or unknown conversation id', async () => {
    await expect(chat.send(ann, {})).rejects.toMatchObject({code: 'invalid_argument', message: 'message is required: a non-empty string'});
    await expect(chat.send(ann, {message: '   '})).rejects.toMatchObject({code: 'invalid_argument'});
    await expect(chat.send(ann, {conversationId: 'abc', message: 'x'})).rejects.toMatchObject({
      code: 'invalid_argument',
      message: 'conversationId must be a positive whole number (got "abc")',
    });
    await expect(chat.send(ann, {conversationId: 999999, message: 'x'})).rejects.toMatchObject({code: 'not_found'});
  });

  describe('over HTTP', () => {
    const post = async (path: string, body: unknown, token?: string) =>
      fetch(`${server.url}/graphql${path}`, {
        method: 'POST',
        headers: {'content-type': 'application/json', ...(token ? {authorization: `Bearer ${token}`} : {})},
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    const events = (text: string) =>
      text
        .trim()
        .split('\n\n')
        .map((block) => ({event: /^event: (.+)$/m.exec(block)?.[1], data: JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? 'null') as Record<string, unknown>}));

    maybe('POST /graphql/chat streams server-sent events for the token’s user; plans approve over HTTP', async () => {
      const token = await issuer.mint({sub: 'ann', tenant_id: 'a'}, {audience: AUDIENCE});
      model.reply({text: ['Hi ', 'ann']});
      const response = await post('/chat', {message: 'hello'}, token);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const stream = events(await response.text());
      expect(stream.map((item) => item.event)).toEqual(['text', 'text', 'done']);
      const id = stream[2]!.data.conversationId as number;
      expect(await db('conversations').where({id}).first()).toMatchObject({tenant_id: 'a', title: 'hello'});

      model.reply({toolCalls: [{name: `plan_${photos()}`, input: {summary: 'add', operations: [{op: 'insert', values: {caption: 'via http'}}]}}]}, {text: 'ok'});
      const planned = events(await (await post('/chat', {conversationId: id, message: 'add a photo'}, token)).text());
      const plan = planned.find((item) => item.event === 'plan')!.data;
      expect(await db('photos').where({caption: 'via http'})).toHaveLength(0);
      const bobToken = await issuer.mint({sub: 'bob', tenant_id: 'b'}, {audience: AUDIENCE});
      expect((await post(`/chat/plans/${String(plan.planId)}/approve`, {}, bobToken)).status).toBe(404);
      const approved = await post(`/chat/plans/${String(plan.planId)}/approve`, {}, token);
      expect(approved.status).toBe(200);
      expect(await approved.json()).toMatchObject({approval: {approvedBy: 'ann', affected: 1}});
      expect(await db('photos').where({caption: 'via http'}).select('tenant_id')).toEqual([{tenant_id: 'a'}]);

      const listed = (await (await fetch(`${server.url}/graphql/chat/conversations`, {headers: {authorization: `Bearer ${token}`}})).json()) as {
        conversations: Array<{id: number}>;
      };
      expect(listed.conversations.map((conversation) => conversation.id)).toContain(id);
      const others = (await (await fetch(`${server.url}/graphql/chat/conversations`, {headers: {authorization: `Bearer ${bobToken}`}})).json()) as {
        conversations: Array<{id: number}>;
      };
      expect(others.conversations.map((conversation) => conversation.id)).not.toContain(id);
    });

    maybe('no token is 401 as on /graphql; bad input is 400 with a message and no stack; another tenant’s conversation is 404', async () => {
      const noToken = await post('/chat', {message: 'hello'});
      expect(noToken.status).toBe(401);
      expect(noToken.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const token = await issuer.mint({sub: 'ann', tenant_id: 'a'}, {audience: AUDIENCE});
      const cases: Array<[unknown, number, RegExp]> = [
        [{}, 400, /message is required/],
        ['{"message": "unterminated', 400, /not valid JSON/],
        [{conversationId: 'abc', message: 'x'}, 400, /conversationId must be a positive whole number/],
        [{conversationId: {}, message: 'x'}, 400, /conversationId/],
        [{message: 'x', extra: 1}, 400, /extra/],
        [{conversationId: 999999, message: 'x'}, 404, /no conversation 999999/],
      ];
      for (const [body, status, message] of cases) {
        const response = await post('/chat', body, token);
        const text = await response.text();
        expect([response.status, text]).toEqual([status, expect.stringMatching(message)]);
        expect(text).not.toMatch(/ at .*\.(ts|js):\d+/);
      }
      const planBad = await post('/chat/plans/abc/approve', {}, token);
      expect(planBad.status).toBe(400);
      // A cross-site page cannot post to the chat (the kit's Origin guard).
      const crossSite = await fetch(`${server.url}/graphql/chat`, {
        method: 'POST',
        headers: {'content-type': 'application/json', origin: 'https://evil.example', authorization: `Bearer ${token}`},
        body: JSON.stringify({message: 'x'}),
      });
      expect(crossSite.status).toBe(403);
    });
  });
});
