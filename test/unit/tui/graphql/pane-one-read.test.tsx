import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {cleanup} from 'ink-testing-library';
import type {GraphQLSchema} from 'graphql';
import {graphqlPane} from '../../../../source/tui/panes/graphql/GraphqlPane.js';
import {openGqlService} from '../../../../source/gql/service.js';
import {loadGqlSettings} from '../../../../source/gql/settings/load-settings.js';
import {gqlDatabases, type GqlFixture} from '../../../helpers/gql-databases.js';
import {startInProcessDaemon, type InProcessDaemon} from '../daemonHarness.js';
import {KEYS, renderApp} from '../renderApp.js';

// Keys faster than frames: each test writes a whole sequence in ONE read (as a paste without
// bracketed paste, tmux send-keys, or fast typing do), so no frame is drawn between `e` and the
// text after it. The pane runs on the real service (Chinook in SQLite, opened in-process).

const CTRL_R = '\u0012';
const CTRL_U = '\u0015';
const BACKSPACE = '\u007f';
const DELETE = '\u001b[3~';
const RIGHT = '\u001b[C';
const LEFT = '\u001b[D';
const CTRL_END = '\u001b[1;5F';
/** Empties the box as it starts (`{`, an indented blank line, `}` around the cursor). */
const CLEAR_QUERY = CTRL_U + BACKSPACE + BACKSPACE + DELETE + DELETE;

let daemon: InProcessDaemon | undefined;
let fixture: GqlFixture | undefined;

afterEach(async () => {
  cleanup();
  await daemon?.ports.close();
  await daemon?.close();
  await fixture?.drop();
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
  return {app, album: albumField(await daemon.ports.graphql.schema())};
}

function albumField(schema: GraphQLSchema): string {
  const name = Object.keys(schema.getQueryType()!.getFields()).find((field) => field.toLowerCase() === 'album');
  if (!name) throw new Error(`no album field in ${Object.keys(schema.getQueryType()!.getFields()).join(', ')}`);
  return name;
}

const historyQueries = () => (JSON.parse(readFileSync(join(daemon!.home, 'gql-history.json'), 'utf8')) as {entries: Array<{query: string; variables: string}>}).entries;

describe('the GraphQL pane with keys in one read', () => {
  it('e, a query and ctrl-r in one write: the text lands in the editor and the service answers it', async () => {
    const {app, album} = await renderPane();
    // `q` and digits are the TUI's keys while browsing: here they are text of the query (an alias, a limit).
    const query = `{ q: ${album}(limit: 2) { data { Title } } }`;
    app.stdin.write('e' + CLEAR_QUERY + query + CTRL_R);
    await app.waitForText(/Result · \d+ ms/);
    await app.waitForText('Title: "Balls to the Wall"');
    expect(app.frame()).toContain('Title: "For Those About To Rock We Salute You"');
    expect(app.frame()).toMatch(/▾ q \{1\}/);
    expect(app.frame()).toContain(query);
    expect(app.onQuit).not.toHaveBeenCalled();
    expect(historyQueries()[0]).toMatchObject({query, variables: ''});
  }, 120_000);

  it('e straight before an escape sequence (ctrl-end): the sequence, a separate input event of the same read, reaches the editor too', async () => {
    const {app, album} = await renderPane();
    // ink hands `e` and `ESC [1;5F` over as two inputs in one go: a pane that routed the second by the
    // last frame's section moved the result tree instead, and the backspaces left the box's `}`.
    const query = `{ ${album}(limit: 1) { data { Title } } }`;
    app.stdin.write('e' + CTRL_END + BACKSPACE.repeat(20) + query + CTRL_R);
    await app.waitForText(/Result · \d+ ms/);
    await app.waitForText('Title: "For Those About To Rock We Salute You"');
    expect(app.frame()).not.toContain('! error');
    expect(historyQueries()[0]).toMatchObject({query, variables: ''});
  }, 120_000);

  it('e, a query, shift-tab, the variables and ctrl-r in one write: each part lands in its box', async () => {
    const {app, album} = await renderPane();
    const query = `query ($n: Int) { ${album}(limit: $n) { data { AlbumId } } }`;
    app.stdin.write('e' + CLEAR_QUERY + query + KEYS.shiftTab + '{"n": 3}' + CTRL_R);
    await app.waitForText(/▾ data \[3\]/);
    expect(app.frame()).toContain('AlbumId: 3');
    expect(app.frame()).not.toContain('AlbumId: 4');
    expect(app.frame()).toContain('JSON object · shift-tab back to the query');
    expect(historyQueries()[0]).toMatchObject({query, variables: '{"n": 3}'});
  }, 120_000);

  it('browsing: r, then moves and folds in one write each, act on what the key before them left', async () => {
    const {app, album} = await renderPane();
    app.stdin.write('e' + CLEAR_QUERY + `{ ${album}(limit: 2) { data { AlbumId } } }`);
    await app.waitForText(`{ ${album}(limit: 2)`);
    await app.press(KEYS.escape);
    await app.waitForText('e edit query · v variables');
    // `r` runs; `v` and the variables typed after it go to the variables box, not to the tree.
    app.stdin.write('r' + 'v' + '{}');
    await app.waitForText(/▾ data \[2\]/);
    await app.waitForText('JSON object · shift-tab back to the query');
    await app.waitFor((frame) => /Variables JSON object[^\n]*\n[^\n]*│?\s*\{\}/.test(frame), 'the variables box holds {}');
    await app.press(KEYS.escape);
    await app.waitForText('e edit query · v variables');
    // Each write below ends in a state none of its keys shows on its own: a key acting on the last
    // frame's tree (the selection, what is folded) would leave another one.
    // c folds all but the top two rows; j goes to the album field; enter closes it.
    app.stdin.write('cj\r');
    await app.waitForText(`▸ ${album} {1}`);
    // → opens it again; j goes to its data list, → opens it; j to the first album (folded by c too), → opens it.
    app.stdin.write(RIGHT + 'j' + RIGHT + 'j' + RIGHT);
    await app.waitForText('AlbumId: 1');
    expect(app.frame()).toContain('▸ 1 {1}');
    // G goes to the last row (the second album, folded); ← goes to the list that holds it, ← again closes the list.
    app.stdin.write('G' + LEFT + LEFT);
    await app.waitForText('▸ data [2]');
    expect(app.frame()).toContain(`▾ ${album} {1}`);
    expect(app.frame()).not.toContain('AlbumId: 1');
  }, 120_000);
});
