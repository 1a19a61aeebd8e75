import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import knex from 'knex';
import {afterEach, describe, expect, it} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {startModelEndpoint, type ModelEndpoint} from '../../../../fixtures/model-endpoint/stand-in.js';
import {openChat} from '../../../../source/gql/chat/chat-service.js';
import {openGqlService} from '../../../../source/gql/service.js';
import {loadGqlSettings} from '../../../../source/gql/settings/load-settings.js';
import {WorkbenchError} from '../../../../source/core/errors.js';
import {chatPane} from '../../../../source/tui/panes/chat.js';
import {graphqlPane} from '../../../../source/tui/panes/graphql/GraphqlPane.js';
import {startInProcessDaemon, type InProcessDaemon} from '../daemonHarness.js';
import {KEYS, renderApp} from '../renderApp.js';
import {CHAT_RULES, createChatTables} from '../../../helpers/chat-tables.js';

// A database's chat in the TUI, on the real service (SQLite with chat tables and a connector table,
// opened in-process by the GraphQL pane's port) and the agent loop against the model stand-in: the
// Chat pane talks to the database (d), a plan it proposes runs only after `y`, and the GraphQL pane
// lists the stored conversation (t).

let daemon: InProcessDaemon | undefined;
let model: ModelEndpoint | undefined;

afterEach(async () => {
  cleanup();
  await daemon?.ports.close();
  await daemon?.close();
  await model?.close();
  daemon = undefined;
  model = undefined;
});

const noModel = () => Promise.reject(new WorkbenchError('not_found', 'no model endpoint in this test: d talks to the database'));

async function project(dir: string, endpoint: string): Promise<{cwd: string; db: knex.Knex}> {
  const cwd = join(dir, 'gql-project');
  mkdirSync(cwd);
  const file = join(cwd, 'trips.sqlite');
  const db = knex({client: 'better-sqlite3', connection: {filename: file}, useNullAsDefault: true});
  await createChatTables(db);
  await db.schema.createTable('photos', (t) => {
    t.increments('id');
    t.string('caption', 200);
  });
  await db('photos').insert([{caption: 'beach'}, {caption: 'hills'}]);
  writeFileSync(
    join(cwd, 'appsettings.json'),
    JSON.stringify({
      ConnectionStrings: {gqlservice: `Data Source=${file}`},
      GqlService: {
        Provider: 'sqlite',
        DisableAuth: true,
        Metadata: [...CHAT_RULES, 'main.photos { chat-connector: explore, plan; chat-plan-operations: update }'],
        Chat: {Api: 'messages', BaseUrl: endpoint, Model: 'stand-in', ApiKey: 'sk-tui'},
      },
    }),
  );
  return {cwd, db};
}

describe("a database's chat in the TUI", () => {
  it('the Chat pane talks to the database through its connectors, runs a plan only on y, and the GraphQL pane lists the conversation', async () => {
    model = await startModelEndpoint({key: 'sk-tui'});
    let cwd = '';
    daemon = await startInProcessDaemon({
      openGqlInProcess: () => openGqlService(loadGqlSettings({cwd})),
      chatOpeners: {openAgent: noModel, openAcp: noModel},
    });
    const made = await project(daemon.dir, model.url);
    cwd = made.cwd;
    // The tools are named for the table's GraphQL name.
    const probe = await openGqlService(loadGqlSettings({cwd}));
    const photos = openChat(probe)!.connectors[0]!.table.name;
    await probe.close();

    model.reply(
      {toolCalls: [{name: `explore_${photos}`, input: {columns: ['caption'], sort: ['id_asc']}}]},
      {text: 'You have two photos: beach and hills.'},
      {toolCalls: [{name: `plan_${photos}`, input: {summary: 'rename the beach', operations: [{op: 'update', values: {id: 1, caption: 'Sunny beach'}}]}}]},
      {text: 'Approve the plan to rename it.'},
    );
    const app = await renderApp(daemon.ports, {columns: 160, rows: 50}, {panes: [graphqlPane, chatPane], title: 'workbench'});
    await app.waitForText('schema loaded');
    await app.press('2');
    await app.waitForText('no model endpoint in this test');
    await app.press(KEYS.escape);
    await app.waitForText('i type · ↑↓ select');
    await app.press('d');
    await app.waitForText('database chat: in-process');
    await app.press('i');
    await app.press('which photos do I have?' + KEYS.enter);
    await app.waitForText('You have two photos: beach and hills.');
    expect(app.frame()).toContain(`explore_${photos}`);

    await app.waitForStatusBar('enter send');
    await app.press('rename photo 1', KEYS.enter);
    await app.waitForText('[y] allow');
    // The question names the plan and shows what it would write.
    expect(app.frame()).toMatch(/plan \d+: rename the beach/);
    expect(app.frame()).toContain('update main.photos {"id":1,"caption":"Sunny beach"}');
    // Asked is not done.
    expect((await made.db('photos').where({id: 1}).first()).caption).toBe('beach');
    await app.press('y');
    await app.waitForText('ran: 1 row changed');
    expect((await made.db('photos').where({id: 1}).first()).caption).toBe('Sunny beach');

    await app.waitForStatusBar('enter send');
    await app.press(KEYS.escape);
    await app.waitForText('i type · ↑↓ select');
    await app.press('1');
    await app.waitForText('schema loaded');
    await app.press('t');
    await app.waitForText('Chat conversations · 1');
    await app.waitForText('user: which photos do I have?');
    await app.waitForText('assistant: You have two photos: beach and hills.');
    await app.waitForText('approval: ');
    await made.db.destroy();
  });

  it('says what is missing when the database has no chat tables', async () => {
    let cwd = '';
    daemon = await startInProcessDaemon({openGqlInProcess: () => openGqlService(loadGqlSettings({cwd})), chatOpeners: {openAgent: noModel, openAcp: noModel}});
    cwd = join(daemon.dir, 'plain');
    mkdirSync(cwd);
    const file = join(cwd, 'plain.sqlite');
    const db = knex({client: 'better-sqlite3', connection: {filename: file}, useNullAsDefault: true});
    await db.schema.createTable('notes', (t) => {
      t.increments('id');
      t.string('text');
    });
    await db.destroy();
    writeFileSync(join(cwd, 'appsettings.json'), JSON.stringify({ConnectionStrings: {gqlservice: `Data Source=${file}`}, GqlService: {Provider: 'sqlite', DisableAuth: true}}));
    const app = await renderApp(daemon.ports, {columns: 160, rows: 50}, {panes: [graphqlPane, chatPane], title: 'workbench'});
    await app.waitForText('schema loaded');
    await app.press('t');
    await app.waitForText('this database has no chat: mark a conversations table');
    await app.press('2');
    await app.waitForText('no model endpoint in this test');
    await app.press(KEYS.escape);
    await app.waitForText('i type · ↑↓ select');
    await app.press('d');
    await app.waitForText('this database has no chat');
  });
});
