// `workbench gql chat send|list|approve` as built (dist/source/cli.js), in-process on a SQLite
// project with chat tables and a plan connector, the model being the stand-in of
// fixtures/model-endpoint: a turn printed and stored, continued with --conversation, a plan that
// waits in a script and runs on approve; and the user's mistakes, each a one-line error.
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startModelEndpoint, type ModelEndpoint} from '../../../fixtures/model-endpoint/stand-in.js';
import {expectOneLineFailure, makeSandbox, runCli, type Sandbox} from '../../helpers/cli.js';
import {CHAT_RULES, createChatTables} from '../../helpers/chat-tables.js';

describe('workbench gql chat', () => {
  let sandbox: Sandbox;
  let model: ModelEndpoint;
  let db: Knex;
  let settings: string;
  const cli = (...args: string[]) => runCli(['gql', 'chat', ...args, '--settings', settings], {env: sandbox.env, cwd: sandbox.dir, timeoutMs: 60_000});

  beforeAll(async () => {
    sandbox = makeSandbox('wb-gql-chat-');
    model = await startModelEndpoint({key: 'sk-cli'});
    const file = join(sandbox.dir, 'shop.sqlite');
    db = knex({client: 'better-sqlite3', connection: {filename: file}, useNullAsDefault: true});
    await createChatTables(db);
    await db.schema.createTable('products', (t) => {
      t.increments('id');
      t.string('name', 100);
      t.integer('stock');
    });
    await db('products').insert([
      {name: 'kettle', stock: 3},
      {name: 'teapot', stock: 0},
    ]);
    settings = join(sandbox.dir, 'appsettings.json');
    writeFileSync(
      settings,
      JSON.stringify({
        ConnectionStrings: {gqlservice: `Data Source=${file}`},
        GqlService: {
          Provider: 'sqlite',
          DisableAuth: true,
          Metadata: [...CHAT_RULES, 'main.products { chat-connector: explore, plan; chat-plan-operations: update }'],
          Chat: {Api: 'messages', BaseUrl: model.url, Model: 'stand-in', ApiKey: 'sk-cli'},
        },
      }),
    );
  });
  afterAll(async () => {
    await db?.destroy();
    await model?.close();
    await sandbox?.cleanup();
  });

  it('sends a message, prints the tool row and the answer, and continues the conversation', async () => {
    model.reply({toolCalls: [{name: 'explore_products', input: {filter: {stock: {_eq: 0}}, columns: ['name']}}]}, {text: 'The teapot is out of stock.'});
    const first = await cli('send', 'what is out of stock?');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('explore_products');
    expect(first.stdout).toContain('The teapot is out of stock.');
    const id = /conversation (\d+) · continue with --conversation \1/.exec(first.stdout)?.[1];
    expect(id).toBeDefined();

    model.reply({text: 'Yes, only that one.'});
    const second = await cli('send', 'only that one?', '--conversation', id!);
    expect(second.code).toBe(0);
    // The history went to the model: the first question and answer came back with the second.
    const sent = JSON.stringify(model.requests.at(-1)!.body.messages);
    expect(sent).toContain('what is out of stock?');
    expect(sent).toContain('The teapot is out of stock.');

    const listed = await cli('list');
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\twhat is out of stock\\?\\t6 messages\\t`, 'm'));
    const one = await cli('list', '--conversation', id!);
    expect(one.stdout).toContain('user: only that one?');
    expect(one.stdout).toContain('assistant: Yes, only that one.');
    const json = JSON.parse((await cli('list', '--json')).stdout) as {conversations: Array<{id: number; messages: unknown[]}>};
    expect(json.conversations[0]).toMatchObject({id: Number(id)});
  });

  it('leaves a plan waiting in a script and runs it on approve, once', async () => {
    model.reply(
      {toolCalls: [{name: 'plan_products', input: {summary: 'restock the teapot', operations: [{op: 'update', values: {id: 2, stock: 10}}]}}]},
      {text: 'Approve to restock.'},
    );
    const sent = await cli('send', 'restock the teapot');
    expect(sent.code).toBe(0);
    const plan = /plan (\d+) waits for approval: workbench gql chat approve \1/.exec(sent.stdout)?.[1];
    expect(plan).toBeDefined();
    expect((await db('products').where({id: 2}).first()).stock).toBe(0);

    const approved = await cli('approve', plan!);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(new RegExp(`^plan ${plan} ran: 1 row changed`));
    expect((await db('products').where({id: 2}).first()).stock).toBe(10);
    expectOneLineFailure(await cli('approve', plan!), new RegExp(`plan ${plan} was already approved`), 'approved twice');
  });

  it('answers mistakes with one line', async () => {
    expectOneLineFailure(await cli('send', '   '), /the message is empty/, 'empty message');
    // Refused by the chat once the turn began: an error row, as `workbench agent` prints them, exit 1.
    const unknown = await cli('send', 'hi', '--conversation', '999999');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('error: no conversation 999999\n');
    expectOneLineFailure(await cli('approve', '999999'), /no plan 999999/, 'unknown plan');
    expectOneLineFailure(await cli('list', '--conversation', '424242'), /no conversation 424242/, 'unknown conversation in list');
    expectOneLineFailure(await cli('send', 'hi', '--claims', '[1]'), /--claims must be a JSON object/, 'claims not an object');
  });
});
