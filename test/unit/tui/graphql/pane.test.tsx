import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import type {GraphQLSchema} from 'graphql';
import {graphqlPane} from '../../../../source/tui/panes/graphql/GraphqlPane.js';
import {openGqlService} from '../../../../source/gql/service.js';
import {loadGqlSettings} from '../../../../source/gql/settings/load-settings.js';
import {gqlDatabases, type GqlFixture} from '../../../helpers/gql-databases.js';
import {startInProcessDaemon, type InProcessDaemon} from '../daemonHarness.js';
import {KEYS, renderApp} from '../renderApp.js';

// The GraphQL pane at a real terminal size on the real service: Chinook in SQLite, the project's
// appsettings.json read by loadGqlSettings, the service opened in-process by the pane's port
// (no `serve graphql` runs in this WORKBENCH_HOME), the daemon harness for the rest of the TUI.

const CTRL_R = '\u0012';
const CTRL_P = '\u0010';
const SHIFT_TAB = '\u001b[Z';
const BACKSPACE = '\u007f';
const DELETE = '\u001b[3~';

let daemon: InProcessDaemon | undefined;
let fixture: GqlFixture | undefined;

afterEach(async () => {
  cleanup();
  await daemon?.ports.close();
  await daemon?.close();
  await fixture?.drop();
  vi.unstubAllEnvs();
  daemon = undefined;
  fixture = undefined;
});

async function renderPane() {
  const sqlite = (await gqlDatabases()).find((database) => database.kind === 'sqlite')!;
  fixture = await sqlite.createChinook();
  let project = '';
  daemon = await startInProcessDaemon({openGqlInProcess: () => openGqlService(loadGqlSettings({cwd: project}))});
  project = join(daemon.dir, 'gql-project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'appsettings.json'),
    JSON.stringify({ConnectionStrings: {gqlservice: fixture.connectionString}, GqlService: {Provider: 'sqlite', DisableAuth: true}}),
  );
  const app = await renderApp(daemon.ports, {columns: 200, rows: 60}, {panes: [graphqlPane], title: 'workbench'});
  await app.waitForText('schema loaded, tab completes');
  const schema = await daemon.ports.graphql.schema();
  return {app, schema};
}

/** The root field over the Album table, as the model names it. */
function albumField(schema: GraphQLSchema): string {
  const name = Object.keys(schema.getQueryType()!.getFields()).find((field) => field.toLowerCase() === 'album');
  if (!name) throw new Error(`no album field in ${Object.keys(schema.getQueryType()!.getFields()).join(', ')}`);
  return name;
}

describe('the GraphQL pane on the real service', () => {
  it('writes a query with completion, runs it, shows the result as a tree to scroll and fold, and keeps it in the history', async () => {
    const {app, schema} = await renderPane();
    const album = albumField(schema);
    expect(app.frame()).toContain(`in-process · ${join(daemon!.dir, 'gql-project', 'appsettings.json')}`);

    await app.press('e');
    await app.waitForText('ctrl-r run · tab complete · esc done');
    // Completion at the root: the table's field from its first letters (one candidate goes in at once, several open a list).
    await app.press(album.slice(0, -1), '\t');
    await app.waitFor((frame) => frame.includes(album) || frame.includes('▸ '), 'completion of the root field');
    if (!app.frame().includes(`  ${album}\n`) && app.frame().includes('▸ ')) await app.press(KEYS.enter);
    await app.press('(limit: 3) {', KEYS.enter, 'data {', KEYS.enter, 'AlbumId', KEYS.enter, 'Ti', '\t');
    await app.waitFor((frame) => /^\s*│?\s+Title\b/m.test(frame) || frame.includes('▸ Title'), 'Title offered');
    if (app.frame().includes('▸ Title')) await app.press(KEYS.enter);
    await app.waitFor((frame) => /│\s+Title\s/.test(frame) && !frame.includes('▸ Title'), 'Title completed');
    // The editor indents and dedents but does not close braces: the query is closed by hand.
    await app.press(KEYS.enter, '}', KEYS.enter, 'total', KEYS.enter, '}');

    await app.press(CTRL_R);
    await app.waitForText(/Result · \d+ ms/);
    await app.waitForText('AlbumId: 1');
    const frame = app.frame();
    expect(frame).toContain('Title: "For Those About To Rock We Salute You"');
    expect(frame).toContain('Title: "Balls to the Wall"');
    expect(frame).toMatch(/▾ data \[3\]/);
    expect(frame).toMatch(/total: 347/);

    // Esc leaves the editor: j/k move in the tree, enter folds; the first album closes to one row.
    // The selection starts on the top row (`data`): three rows down (Album, its data list) is the first album.
    await app.press(KEYS.escape);
    await app.waitForText('e edit query · v variables');
    await app.press('j', 'j', 'j', KEYS.enter);
    await app.waitFor((current) => /▸ 0 \{2\}/.test(current) && !current.includes('AlbumId: 1'), 'first album folded');
    await app.press(' ');
    await app.waitForText('AlbumId: 1');
    await app.press('c');
    await app.waitFor((current) => /▸ data \[3\]/.test(current) && !current.includes('AlbumId: '), 'all folded');
    await app.press('o');
    await app.waitForText('AlbumId: 3');

    // Kept: WORKBENCH_HOME/gql-history.json holds the query.
    const history = JSON.parse(readFileSync(join(daemon!.home, 'gql-history.json'), 'utf8')) as {entries: Array<{query: string}>};
    expect(history.entries[0]!.query).toContain(`${album}(limit: 3)`);
    expect(history.entries[0]!.query).toContain('Title');
  }, 120_000);

  it('checks the variables before running, shows GraphQL errors in the result, recalls the history and scrolls a long result', async () => {
    const {app, schema} = await renderPane();
    const album = albumField(schema);
    // The starting `{ }` goes first (ctrl-u, backspace ×2, delete ×2), then a whole operation with a variable.
    await app.press('e', '\u0015', BACKSPACE, BACKSPACE, DELETE, DELETE, `query ($n: Int) { ${album}(limit: $n) { data { Title } } }`, SHIFT_TAB);
    await app.waitForText('JSON object · shift-tab back to the query');
    await app.press('{n: 2}', CTRL_R);
    await app.waitForText(/variables are not valid JSON: .*line 1, column 2/);
    expect(app.frame()).toContain('no result yet');
    expect(existsSync(join(daemon!.home, 'gql-history.json'))).toBe(false);

    await app.press('\u0015', '{"n": 60}' + CTRL_R);
    await app.waitForText(/▾ data \[60\]/);
    // A result longer than the pane (123 rows in about 50) scrolls with the selection (pgdn, G):
    // the top shows the first albums and not the last; pgdn moves the view; G reaches the end.
    await app.press(KEYS.escape);
    await app.waitForText('e edit query');
    expect(app.frame()).toContain('"Jagged Little Pill"');
    expect(app.frame()).not.toMatch(/▾ 59 \{1\}/);
    await app.press(KEYS.pageDown, KEYS.pageDown);
    await app.waitFor((frame) => !frame.includes('▾ data {1}') && /Title: "/.test(frame), 'a page down');
    await app.press('G');
    await app.waitFor((frame) => /▾ 59 \{1\}/.test(frame) && !frame.includes('"Jagged Little Pill"'), 'scrolled to the end');

    // An unknown field: GraphQL's own error, in red on top of the result, no stack trace.
    await app.press('e', '\u0015', `{ ${album} { data { nope } } }` + CTRL_R);
    await app.waitForText(/! error: Cannot query field "nope"/);
    expect(app.frame()).not.toMatch(/at .*\.ts:\d+/);

    // Ctrl-P brings the earlier query and its variables back.
    await app.press(CTRL_P);
    await app.waitForText('history 2 of 2');
    expect(app.frame()).toContain('query ($n: Int)');
    expect(app.frame()).toContain('{"n": 60}');
  }, 120_000);

  it('says the history file was unreadable, keeps it aside, and carries on', async () => {
    const sqlite = (await gqlDatabases()).find((database) => database.kind === 'sqlite')!;
    fixture = await sqlite.createChinook();
    daemon = await startInProcessDaemon({openGqlInProcess: () => openGqlService(loadGqlSettings({file: settingsFile}))});
    const settingsFile = join(daemon.dir, 'appsettings.json');
    writeFileSync(settingsFile, JSON.stringify({ConnectionStrings: {gqlservice: fixture.connectionString}, GqlService: {Provider: 'sqlite', DisableAuth: true}}));
    writeFileSync(join(daemon.home, 'gql-history.json'), '{"entries": [');
    const app = await renderApp(daemon.ports, {columns: 200, rows: 60}, {panes: [graphqlPane], title: 'workbench'});
    await app.waitForText(/query history .*gql-history\.json is unreadable/);
    await app.waitForText('schema loaded');
    expect(readFileSync(join(daemon.home, 'gql-history.json.bad'), 'utf8')).toBe('{"entries": [');
  }, 120_000);

  it('on an empty database says how to load the sample instead of offering completion', async () => {
    const sqlite = (await gqlDatabases()).find((database) => database.kind === 'sqlite')!;
    fixture = await sqlite.createEmpty();
    daemon = await startInProcessDaemon({openGqlInProcess: () => openGqlService(loadGqlSettings({file: settingsFile}))});
    const settingsFile = join(daemon.dir, 'appsettings.json');
    writeFileSync(settingsFile, JSON.stringify({ConnectionStrings: {gqlservice: fixture.connectionString}, GqlService: {Provider: 'sqlite', DisableAuth: true}}));
    const app = await renderApp(daemon.ports, {columns: 200, rows: 60}, {panes: [graphqlPane], title: 'workbench'});
    await app.waitForText(' · nothing to serve');
    await app.waitForText('the database has no tables: `workbench gql sample` loads the Chinook sample into it');
    expect(app.frame()).not.toContain('tab completes');
  }, 120_000);
});
