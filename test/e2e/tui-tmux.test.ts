import {execFileSync} from 'node:child_process';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {join} from 'node:path';
import {cliPath, eventually, makeSandbox, repoRoot, runCli, type Sandbox} from '../helpers/cli.js';
import {requirePackage} from '../helpers/system-package.js';
import {paneFocused} from '../helpers/tmux.js';

const hasTmux = !requirePackage('tmux', {for: 'the TUI end-to-end test'});

let sandbox: Sandbox;
let socket: string;
const session = 'wb';
const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], {encoding: 'utf8'});
const screen = () => tmux('capture-pane', '-p', '-t', session);
// `workbench demo` opens the TUI in the demo project: its processes are that project's.
const demo = join(repoRoot, 'fixtures', 'demo');

describe.skipIf(!hasTmux)('the TUI in a real terminal (tmux)', () => {
  beforeAll(() => {
    // A person's terminal: no CI variable (under CI, chalk draws no attributes at all, so the NO_COLOR check would see nothing).
    sandbox = makeSandbox('wb-tmux-');
    socket = `${sandbox.dir}/tmux.sock`;
    const env = Object.entries({WORKBENCH_HOME: sandbox.home, XDG_CONFIG_HOME: sandbox.config, HOME: sandbox.dir, TERM: 'xterm-256color', NO_COLOR: '1'})
      .map(([key, value]) => `${key}=${value}`)
      .join(' ');
    tmux('new-session', '-d', '-s', session, '-x', '120', '-y', '36', `env -u CI -u CONTINUOUS_INTEGRATION ${env} ${process.execPath} ${cliPath} demo; echo EXITED-$?; sleep 60`);
  });

  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    await sandbox.cleanup();
  });

  it('shows the demo processes and their incidents, moves between panes, helps, and quits cleanly', async () => {
    const first = await eventually(
      () => {
        const text = screen();
        // The TUI has the daemon run the feed reader's server for the Feeds pane: waited for with
        // the demo's two, not read off the first frame that shows them (it may still be starting).
        return /web\s.*running/.test(text) && /worker\s.*running/.test(text) && /reader\s.*running/.test(text) ? text : undefined;
      },
      30_000,
      250,
    );
    expect(first).toContain('Processes');
    expect(first).toContain('Incidents');
    expect(first).toContain('3 Feeds');

    tmux('send-keys', '-t', session, '2');
    const incidents = await eventually(
      () => {
        const text = screen();
        return /process:(web|worker)/.test(text) ? text : undefined;
      },
      40_000,
      500,
    );
    expect(incidents).toMatch(/process:(web|worker)/);

    tmux('send-keys', '-t', session, '?');
    const help = await eventually(() => (screen().includes('Keys — Incidents') ? screen() : undefined), 5000);
    expect(help).toMatch(/enter\s+show the stack/);
    tmux('send-keys', '-t', session, 'Escape');

    // NO_COLOR: not one colour sequence on the screen (bold, dim and inverse may stay).
    // (Once the help has closed and the frame has its bold/dim attributes, so the check below cannot pass on an empty capture.)
    await eventually(() => !screen().includes('Keys —'), 5000);
    const escapes = await eventually(() => {
      const captured = tmux('capture-pane', '-p', '-e', '-t', session);
      return captured.includes('\u001b[') ? captured : undefined;
    }, 5000);
    expect(escapes).toContain('\u001b[');
    // tmux itself writes 39/49 (default colours) around attributes: those are no colour.
    const colours = (escapes.match(/\u001b\[[0-9;]*m/g) ?? []).filter((sequence) =>
      sequence
        .slice(2, -1)
        .split(';')
        .some((code) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(code)),
    );
    expect(colours).toEqual([]);

    // Keys that arrive in one read each count: `1?` in one write focuses Processes, then helps.
    tmux('send-keys', '-t', session, '-l', '1?');
    await eventually(() => (screen().includes('Keys — Processes') ? true : undefined), 5000);
    tmux('send-keys', '-t', session, 'Escape');
    await eventually(() => !screen().includes('esc closes'), 5000);
    // Three arrows in one send-keys: the selection moves three rows (the list has web, worker, reader, ...).
    const selectedRow = () =>
      screen()
        .split('\n')
        .findIndex((line) => line.includes('▸'));
    const before = selectedRow();
    // What the pane lists: the demo project's processes and the home's reader, as `proc list` in the demo's folder says.
    const listed = (await runCli(['proc', 'list', '--json'], {env: sandbox.env, cwd: demo})).stdout;
    const expected = Math.min(3, (JSON.parse(listed) as unknown[]).length - 1);
    tmux('send-keys', '-t', session, 'Down', 'Down', 'Down');
    // The keys are handed over one by one, each after the screen the one before drew: a screen read
    // between them shows one row moved. A key lost leaves the selection short of all three for good.
    await eventually(() => (selectedRow() - before === expected ? true : undefined), 5000);
    tmux('send-keys', '-t', session, '-l', 'kkk');
    await eventually(() => (selectedRow() === before ? true : undefined), 5000);
    // + zooms the pane to the whole screen (no tabs row), + again gives the others back.
    tmux('send-keys', '-t', session, '+');
    await eventually(() => (screen().includes('+ unzoom') && !screen().includes('3 Feeds') ? true : undefined), 5000);
    tmux('send-keys', '-t', session, '+');
    await eventually(() => (screen().includes('3 Feeds') ? true : undefined), 5000);

    // s starts a script from the project's list, as `workbench run worker` would: stop worker first.
    const pidOf = async (id: string) => {
      const listed = await runCli(['proc', 'list', '--json'], {env: sandbox.env, cwd: demo});
      return (JSON.parse(listed.stdout) as Array<{id: string; status: string; pid?: number}>).find((entry) => entry.id === id);
    };
    const workerBefore = await pidOf('worker');
    // Esc and the next key sent together read as Alt+key: let the help close first.
    await eventually(() => !screen().includes('Keys —'), 5000);
    tmux('send-keys', '-t', session, '1');
    tmux('send-keys', '-t', session, '/');
    await eventually(() => screen().includes('enter keep · esc clear'), 5000);
    tmux('send-keys', '-t', session, '-l', 'worker');
    await eventually(() => screen().includes('/worker'), 5000);
    tmux('send-keys', '-t', session, 'Enter');
    await eventually(() => screen().includes('filter: worker'), 5000);
    tmux('send-keys', '-t', session, 'x');
    await eventually(() => (/worker\s+stopped/.test(screen()) ? true : undefined), 15_000, 250);
    tmux('send-keys', '-t', session, 's');
    const picker = await eventually(() => (/Start a script[\s\S]*worker\s+node worker\.mjs/.test(screen()) ? screen() : undefined), 10_000, 250);
    expect(picker).toMatch(/web\s+node server\.mjs/);
    // One j at a time, each waited for until the selection has moved: a j sent before the last one
    // was drawn would go past worker.
    const pickedRow = () => /▸ (\S+)\s+node /.exec(screen())?.[1];
    for (let step = 0; step < 5 && pickedRow() !== 'worker'; step++) {
      const was = pickedRow();
      tmux('send-keys', '-t', session, 'j');
      await eventually(() => (pickedRow() !== was ? true : undefined), 5000);
    }
    expect(screen()).toMatch(/▸ worker/);
    tmux('send-keys', '-t', session, 'Enter');
    const started = await eventually(() => (screen().includes('started worker') && /worker\s+running/.test(screen()) ? screen() : undefined), 15_000, 250);
    expect(started).not.toContain('Invalid input');
    const workerAfter = await pidOf('worker');
    expect(workerAfter?.status).toBe('running');
    expect(workerAfter?.pid).not.toBe(workerBefore?.pid);
    tmux('send-keys', '-t', session, 'Escape');
    // As above: Esc must be read alone (it clears the filter) before the next key.
    await eventually(() => !screen().includes('filter: worker'), 5000);

    // The Proxy pane: s starts the demo's proxy from .workbench.kdl, and a request through it shows up live.
    // The Proxy pane's text shows while another pane has the focus: s goes once it has it.
    tmux('send-keys', '-t', session, '4');
    await paneFocused(screen, 4);
    await eventually(() => screen().includes('no proxy running'), 10_000, 250);
    tmux('send-keys', '-t', session, 's');
    await eventually(() => /▸ shop\s+→ http:\/\/127\.0\.0\.1:4310/.test(screen()), 10_000, 250);
    tmux('send-keys', '-t', session, 'Enter');
    const proxyUrl = await eventually(() => /started proxy shop on (http:\/\/127\.0\.0\.1:\d+)/.exec(screen())?.[1], 15_000, 250);
    await fetch(`${proxyUrl}/api/products`).then((response) => response.arrayBuffer());
    await eventually(() => /GET\s+200\s+\/api\/products/.test(screen()), 10_000, 250);

    // The GraphQL pane: the demo serves a Chinook sample of its own, so the first query answers.
    tmux('send-keys', '-t', session, '5');
    const pane = await eventually(() => (screen().includes('schema loaded, tab completes') ? screen() : undefined), 30_000, 250);
    expect(pane).toContain("in-process · the demo's Chinook sample");
    tmux('send-keys', '-t', session, 'e');
    await eventually(() => screen().includes('ctrl-r run · tab complete · esc done'), 5000);
    tmux('send-keys', '-t', session, '-l', 'Artist(limit: 2) { data { Name } }');
    await eventually(() => screen().includes('Artist(limit: 2) { data { Name } }'), 5000);
    tmux('send-keys', '-t', session, 'C-r');
    await eventually(() => (screen().includes('Name: "AC/DC"') && screen().includes('▾ data [2]') ? true : undefined), 30_000, 250);
    // Esc leaves the editor (read alone: a key right behind it would read as Alt+key).
    tmux('send-keys', '-t', session, 'Escape');
    await eventually(() => (!screen().includes('esc done') ? true : undefined), 5000);

    tmux('resize-window', '-t', session, '-x', '70', '-y', '20');
    await eventually(() => !screen().includes('EXITED') && screen().trim().length > 0, 5000);

    tmux('send-keys', '-t', session, 'q');
    const after = await eventually(() => (screen().includes('EXITED-0') ? screen() : undefined), 10_000);
    expect(after).toContain('EXITED-0');

    // Quitting leaves the children to the daemon.
    const list = await runCli(['proc', 'list'], {env: sandbox.env, cwd: demo});
    expect(list.stdout).toMatch(/web\s+running/);
  }, 90_000);
});
