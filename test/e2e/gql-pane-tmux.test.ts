import {execFileSync} from 'node:child_process';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {cliPath, eventually, makeSandbox, type Sandbox} from '../helpers/cli.js';
import {gqlDatabases, type GqlFixture} from '../helpers/gql-databases.js';
import {requirePackage} from '../helpers/system-package.js';
import {paneFocused} from '../helpers/tmux.js';

// The GraphQL pane in the real program (dist/) in a real terminal (tmux, 200×60): a project whose
// appsettings.json points at Chinook in SQLite, no `serve graphql` running, so the pane's port
// opens the service in-process. Keys go through tmux as a person types them.

const hasTmux = !requirePackage('tmux', {for: 'the GraphQL pane end-to-end test'});

let sandbox: Sandbox;
let fixture: GqlFixture;
let socket: string;
const session = 'wbgql';
const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], {encoding: 'utf8'});
const screen = () => tmux('capture-pane', '-p', '-t', session);
const keys = (...names: string[]) => tmux('send-keys', '-t', session, ...names);
const type = (text: string) => tmux('send-keys', '-t', session, '-l', text);
/** The row drawn in reverse video (the selected row of the result), without its escapes. */
const selectedRow = () =>
  tmux('capture-pane', '-p', '-e', '-t', session)
    .split('\n')
    .filter((line) => /\u001b\[(?:\d+;)*7(?:;\d+)*m/.test(line))
    .map((line) => line.replace(/\u001b\[[\d;]*m/g, ''))
    .find((line) => /[▾▸]|: /.test(line));
const selects = (pattern: RegExp, timeoutMs = 15_000) =>
  eventually(() => (pattern.test(selectedRow() ?? '') ? true : undefined), timeoutMs, 100).catch(() => {
    throw new Error(`${String(pattern)} not the selected row (${selectedRow() ?? 'none'}):\n${screen()}`);
  });
const shows = (pattern: string | RegExp, timeoutMs = 15_000) =>
  eventually(() => (typeof pattern === 'string' ? screen().includes(pattern) : pattern.test(screen())) || undefined, timeoutMs, 100).catch(() => {
    throw new Error(`${String(pattern)} not on the screen:\n${screen()}`);
  });

describe.skipIf(!hasTmux)('the GraphQL pane in a real terminal (tmux)', () => {
  beforeAll(async () => {
    sandbox = makeSandbox('wb-gqltmux-');
    socket = `${sandbox.dir}/tmux.sock`;
    const sqlite = (await gqlDatabases()).find((database) => database.kind === 'sqlite')!;
    fixture = await sqlite.createChinook();
    const project = join(sandbox.dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'gql-demo', private: true, scripts: {}}));
    writeFileSync(
      join(project, 'appsettings.json'),
      JSON.stringify({ConnectionStrings: {gqlservice: fixture.connectionString}, GqlService: {Provider: 'sqlite', DisableAuth: true}}),
    );
    const env = Object.entries({WORKBENCH_HOME: sandbox.home, XDG_CONFIG_HOME: sandbox.config, HOME: sandbox.dir, TERM: 'xterm-256color'})
      .map(([key, value]) => `${key}=${value}`)
      .join(' ');
    tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '200',
      '-y',
      '60',
      '-c',
      project,
      `env -u CI -u CONTINUOUS_INTEGRATION ${env} ${process.execPath} ${cliPath}; echo EXITED-$?; sleep 60`,
    );
  });

  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    await fixture?.drop();
    await sandbox?.cleanup();
  });

  it('opens the pane, types a query with completion, runs it, scrolls and folds the result, and keeps the query', async () => {
    await shows('5 GraphQL', 30_000);
    keys('5');
    // "schema loaded" shows while another pane has the focus: e goes once pane 5 has it.
    await paneFocused(screen, 5, 30_000);
    await shows('schema loaded, tab completes', 30_000);
    keys('e');
    await shows('ctrl-r run · tab complete · esc done');
    // `Albu` + Tab: the schema's fields that fit; Enter takes the first (the table's list field).
    type('Albu');
    keys('Tab');
    await shows(/▸ Album|│\s+Album\b/);
    if (screen().includes('▸ Album')) keys('Enter');
    await shows(/│\s+Album\s*(│|$)/m);
    type('(limit: 40) {');
    keys('Enter');
    type('data {');
    keys('Enter');
    type('AlbumId');
    keys('Enter');
    type('Tit');
    keys('Tab');
    // One candidate goes in at once; several open a list with the best first.
    await shows(/▸ Title|│\s+Title\s*(│|$)/m);
    if (screen().includes('▸ Title')) keys('Enter');
    await shows(/│\s+Title\s*(│|$)/m);
    // The editor indents but does not close braces: data's and Album's are closed by hand.
    keys('Enter');
    type('}');
    keys('Enter');
    type('}');
    await shows(/│\s{3}\}\s*(│|$)/m);
    keys('C-r');
    await shows(/Result · \d+ ms/, 30_000);
    await shows('Title: "For Those About To Rock We Salute You"');
    expect(screen()).toMatch(/▾ data \[40\]/);

    // Esc, then wait: a key right behind Esc reads as Alt+key.
    keys('Escape');
    await shows('e edit query · v variables');
    // Scroll: the 40th album is below the pane until G goes to the end.
    expect(screen()).not.toContain('AlbumId: 40');
    keys('G');
    await shows('AlbumId: 40');
    keys('g');
    await shows('▾ data {1}');
    await selects(/▾ data \{1\}/);
    // Three rows down from the top (Album, its data list) is the first album.
    keys('j', 'j', 'j');
    await selects(/▾ 0 \{2\}/);
    keys('Enter');
    await shows(/▸ 0 \{2\}/);
    // Folded: the next row is the second album, not the first one's fields.
    expect(screen()).toMatch(/▸ 0 \{2\}[^\n]*\n[^\n]*▾ 1 \{2\}/);

    // Keys faster than frames: e, the whole text (emptied first, a `q` in it) and Ctrl-R in one send-keys,
    // one read for the TUI. The text lands in the editor (q does not quit) and the service answers it.
    keys('e', 'C-End', ...Array<string>(120).fill('BSpace'), '{ q: Album(limit: 2) { data { Title } } }', 'C-r');
    await shows(/▾ q \{1\}/, 30_000);
    await shows('Title: "Balls to the Wall"');
    expect(screen()).toMatch(/▾ data \[2\]/);
    expect(screen()).toContain('{ q: Album(limit: 2) { data { Title } } }');

    const history = JSON.parse(readFileSync(join(sandbox.home, 'gql-history.json'), 'utf8')) as {entries: Array<{query: string}>};
    expect(history.entries[0]!.query).toBe('{ q: Album(limit: 2) { data { Title } } }');
    expect(history.entries[1]!.query).toContain('Album(limit: 40)');

    keys('Escape');
    await shows('e edit query · v variables');
    keys('q');
    await shows('EXITED-0', 15_000);
  }, 180_000);
});
