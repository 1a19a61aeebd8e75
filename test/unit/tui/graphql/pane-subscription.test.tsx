import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import knex from 'knex';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {graphqlPane} from '../../../../source/tui/panes/graphql/GraphqlPane.js';
import {outboxDdl} from '../../../../source/gql/events/outbox-contract.js';
import {openGqlService} from '../../../../source/gql/service.js';
import {loadGqlSettings} from '../../../../source/gql/settings/load-settings.js';
import {startInProcessDaemon, type InProcessDaemon} from '../daemonHarness.js';
import {KEYS, renderApp} from '../renderApp.js';

// A subscription in the GraphQL pane on the real service (SQLite with an outbox, opened in-process
// by the pane's port): each change shows on top of the result as it commits; `s` stops it.

const CTRL_R = '\u0012';
const CTRL_U = '\u0015';
const BACKSPACE = '\u007f';
const DELETE = '\u001b[3~';
let daemon: InProcessDaemon | undefined;

afterEach(async () => {
  cleanup();
  await daemon?.ports.close();
  await daemon?.close();
  daemon = undefined;
});

describe('a subscription in the GraphQL pane', () => {
  it('shows each change as it commits, newest first, until s stops it', async () => {
    let project = '';
    daemon = await startInProcessDaemon({openGqlInProcess: () => openGqlService(loadGqlSettings({cwd: project}))});
    project = join(daemon.dir, 'gql-project');
    mkdirSync(project);
    const file = join(project, 'shop.sqlite');
    const db = knex({client: 'better-sqlite3', connection: {filename: file}, useNullAsDefault: true});
    await db.schema.createTable('artist', (t) => {
      t.increments('id');
      t.string('name', 100);
    });
    for (const statement of outboxDdl('sqlite', 'main', 'wb_outbox')) await db.raw(statement);
    await db.destroy();
    writeFileSync(
      join(project, 'appsettings.json'),
      JSON.stringify({
        ConnectionStrings: {gqlservice: `Data Source=${file}`},
        GqlService: {Provider: 'sqlite', DisableAuth: true, Metadata: [':root { outbox-table: wb_outbox; }', 'main.artist { emit-events: insert, update, delete; }']},
      }),
    );
    const app = await renderApp(daemon.ports, {columns: 160, rows: 50}, {panes: [graphqlPane], title: 'workbench'});
    await app.waitForText('schema loaded');

    await app.press('e');
    await app.waitForText('ctrl-r run · tab complete · esc done');
    // The box starts as `{ }` around the cursor: emptied first.
    await app.press(CTRL_U, BACKSPACE, BACKSPACE, DELETE, DELETE);
    await app.press('subscription { artistChanged { op row { name } } }', CTRL_R);
    await app.waitForText('Result · live · 0 changes · s stops');
    const write = (name: string) => daemon!.ports.graphql.run(`mutation { artist(insert: {name: "${name}"}) }`);
    await write('Zappa');
    await app.waitForText('Result · live · 1 change · s stops');
    await app.waitForText('name: "Zappa"');
    await write('Yes');
    await app.waitForText('Result · live · 2 changes');
    await app.waitFor((frame) => frame.indexOf('name: "Yes"') >= 0 && frame.indexOf('name: "Yes"') < frame.indexOf('name: "Zappa"'), 'the newest change on top');

    await app.press(KEYS.escape, 's');
    await app.waitForText('Result · live · 2 changes · stopped');
    // Stopped is stopped: the next change does not arrive. A subscriber of the test's own hears it
    // from the same outbox tail the pane listened on, and a later change after it: had the pane
    // still listened, it would have had Genesis before that — no pause stands for "long enough".
    const heard: string[] = [];
    const stop = await daemon.ports.graphql.subscribe('subscription { artistChanged { row { name } } }', undefined, {
      onResult: (result) => heard.push((result.data?.artistChanged as {row: {name: string}}).row.name),
      onEnd: () => {},
    });
    await write('Genesis');
    await write('Kansas');
    await vi.waitFor(() => expect(heard).toEqual(['Genesis', 'Kansas']), {timeout: 15_000});
    stop();
    // A key that draws: what the pane would have set on Genesis is drawn by then too.
    await app.press('?');
    await app.waitForText('Keys — GraphQL');
    await app.press(KEYS.escape);
    await app.waitFor((frame) => !frame.includes('Keys — GraphQL'), 'the help closed');
    expect(app.frame()).not.toContain('Genesis');
    expect(app.frame()).toContain('Result · live · 2 changes · stopped');
  });
});
