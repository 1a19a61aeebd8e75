import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import knex, {type Knex} from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startModelEndpoint, type ModelEndpoint} from '../../fixtures/model-endpoint/stand-in.js';
import {cliPath, makeSandbox, type Sandbox} from '../helpers/cli.js';
import {requirePackage} from '../helpers/system-package.js';
import {tmuxDriver} from '../helpers/tmux.js';
import {CHAT_RULES, createChatTables} from '../helpers/chat-tables.js';

// A database's chat in the real program (dist/) in a real terminal (tmux, 160×45): the project's
// appsettings.json serves a SQLite database with chat tables and a plan connector, its chat talking
// to a model stand-in in this process. The Chat pane talks to the database (d), a proposed plan is
// asked and runs on y, and the GraphQL pane lists the conversation (t).

const hasTmux = !requirePackage('tmux', {for: 'the database chat end-to-end test'});
const KEY = 'sk-tmux-gql-chat-0123456789';

let sandbox: Sandbox;
let model: ModelEndpoint;
let db: Knex;
let socket: string;
const session = 'wbgqlchat';
let driver: ReturnType<typeof tmuxDriver>;
const tmux = (...args: string[]) => driver.tmux(...args);
const keys = (...names: string[]) => driver.keys(...names);
const type = (text: string) => driver.type(text);
const shows = (pattern: string | RegExp, timeoutMs?: number) => driver.shows(pattern, timeoutMs);

describe.skipIf(!hasTmux)("a database's chat in a real terminal (tmux)", () => {
  beforeAll(async () => {
    sandbox = makeSandbox('wb-gqlchattmux-');
    socket = `${sandbox.dir}/tmux.sock`;
    driver = tmuxDriver(socket, session);
    model = await startModelEndpoint({key: KEY});
    const project = join(sandbox.dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'shop', private: true, scripts: {}}));
    const file = join(project, 'shop.sqlite');
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
    writeFileSync(
      join(project, 'appsettings.json'),
      JSON.stringify({
        ConnectionStrings: {gqlservice: `Data Source=${file}`},
        GqlService: {
          Provider: 'sqlite',
          DisableAuth: true,
          Metadata: [...CHAT_RULES, 'main.products { chat-connector: explore, plan; chat-plan-operations: update }'],
          Chat: {Api: 'messages', BaseUrl: model.url, Model: 'stand-in', ApiKey: KEY},
        },
      }),
    );
    model.reply(
      {toolCalls: [{name: 'explore_products', input: {filter: {stock: {_eq: 0}}, columns: ['name']}}]},
      {text: ['The teapot ', 'is out of stock.']},
      {toolCalls: [{name: 'plan_products', input: {summary: 'restock the teapot', operations: [{op: 'update', values: {id: 2, stock: 10}}]}}]},
      {text: 'Approve the plan to restock it.'},
    );
    const env = Object.entries({WORKBENCH_HOME: sandbox.home, XDG_CONFIG_HOME: sandbox.config, HOME: sandbox.dir, TERM: 'xterm-256color'})
      .map(([key, value]) => `${key}=${value}`)
      .join(' ');
    const unset = ['CI', 'CONTINUOUS_INTEGRATION', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'MESSAGES_API_KEY', 'MESSAGES_AUTH_TOKEN'].map((name) => `-u ${name}`).join(' ');
    tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '45', '-c', project, `env ${unset} ${env} ${process.execPath} ${cliPath}; echo EXITED-$?; sleep 60`);
  });

  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    await db?.destroy();
    await model?.close();
    await sandbox?.cleanup();
  });

  it('asks the database, runs its plan on y, and lists the conversation in the GraphQL pane', async () => {
    await shows('6 Chat');
    // The chat pane has the keys (the focus, and its input's hints in the status bar) before Esc is
    // sent: a key sent right behind a pane's number can reach the pane that had the focus.
    await driver.focus(6);
    await shows('esc conversation');
    keys('Escape');
    await shows('i type');
    type('d');
    await shows('database chat: in-process');
    type('iwhat is out of stock?');
    keys('Enter');
    await shows('The teapot is out of stock.');
    await shows('explore_products');

    await driver.statusBarShows('enter send');
    type('restock it');
    keys('Enter');
    await shows('[y] allow');
    await shows('update main.products {"id":2,"stock":10}');
    expect((await db('products').where({id: 2}).first()).stock).toBe(0);
    type('y');
    await shows('ran: 1 row changed');
    expect((await db('products').where({id: 2}).first()).stock).toBe(10);

    await driver.statusBarShows('enter send');
    keys('Escape');
    await shows('i type');
    // "schema loaded" shows while the Chat pane still has the focus: t goes once pane 5 has it.
    await driver.focus(5);
    await shows('schema loaded');
    type('t');
    await shows('Chat conversations · 1');
    await shows('user: what is out of stock?');
  });
});
