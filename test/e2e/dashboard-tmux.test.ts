import {execFileSync, type ChildProcess} from 'node:child_process';
import {createServer} from 'node:http';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {cliPath, eventually, makeSandbox, runCli, spawnCli, type Sandbox} from '../helpers/cli.js';
import {requirePackage} from '../helpers/system-package.js';

// `workbench dashboard` (dist/) in a real terminal (tmux, 160×45) over a real reader server with
// traffic: the numbers on the screen are what `workbench metrics --json` prints, a resize to 20×5 and back,
// the server killed, NO_COLOR; then D from the TUI and q back to the pane that was focused.

const hasTmux = !requirePackage('tmux', {for: 'the dashboard end-to-end test'});

let sandbox: Sandbox;
let socket: string;
let reader: ChildProcess;
let readerUrl: string;
const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], {encoding: 'utf8'});
const screen = (session: string) => tmux('capture-pane', '-p', '-t', session);
const shows = (session: string, pattern: string | RegExp, timeoutMs = 20_000) =>
  eventually(
    () => {
      const text = screen(session);
      return (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text)) ? text : undefined;
    },
    timeoutMs,
    100,
  ).catch(() => {
    throw new Error(`${String(pattern)} not on the screen:\n${screen(session)}`);
  });
const environment = (extra: Record<string, string> = {}) =>
  Object.entries({WORKBENCH_HOME: sandbox.home, ...extra, XDG_CONFIG_HOME: sandbox.config, HOME: sandbox.dir, TERM: 'xterm-256color', ...extra})
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
/** The reader's request counter as `workbench metrics --json` prints it (its own read adds one after). */
const requestsCounted = async () => {
  const result = await runCli(['metrics', '--json'], {env: sandbox.env});
  expect(result.code).toBe(0);
  const figures = JSON.parse(result.stdout) as {http: {name: string; requestsTotal: number}[]};
  return figures.http.find((row) => row.name === 'reader')?.requestsTotal ?? -1;
};

describe.skipIf(!hasTmux)('workbench dashboard in a real terminal (tmux)', () => {
  beforeAll(async () => {
    sandbox = makeSandbox('wb-dashtmux-');
    socket = `${sandbox.dir}/tmux.sock`;
    reader = spawnCli(['serve', 'reader', '--port', '0'], {env: sandbox.env});
    readerUrl = await eventually(() => {
      try {
        return (JSON.parse(readFileSync(join(sandbox.home, 'services/reader.json'), 'utf8')) as {url: string}).url;
      } catch {
        return undefined;
      }
    }, 30_000);
  }, 60_000);

  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    reader?.kill('SIGKILL');
    await sandbox?.cleanup();
  });

  it('charts a served reader with the numbers of its /metrics, survives 20×5, shows it stopped, quits cleanly', {timeout: 120_000}, async () => {
    const session = 'dash';
    tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '160',
      '-y',
      '45',
      `env -u CI -u CONTINUOUS_INTEGRATION ${environment({NO_COLOR: '1'})} ${process.execPath} ${cliPath} dashboard; echo EXITED-$?; sleep 60`,
    );
    for (let index = 0; index < 30; index++) expect((await fetch(`${readerUrl}/api/v1/health`)).status).toBe(200);
    for (let index = 0; index < 10; index++) expect((await fetch(`${readerUrl}/api/v1/missing`)).status).toBe(404);
    // The traffic has stopped: the counter grows by the dashboard's and `workbench metrics`'s own
    // reads of /metrics alone, so the total on the screen is what `workbench metrics --json` prints,
    // give or take the reads since it was drawn.
    const matched = await eventually(async () => {
      const looked = Date.now();
      const total = Number(/total reader=(\d+)/.exec(screen(session))?.[1] ?? -1);
      const counted = await requestsCounted();
      // Between the frame and the CLI's second read: the frame's own read, the CLI's first, and the
      // dashboard's, which waits a second after each (one more may be in flight). So the bound
      // follows the time the CLI took to start — long on a loaded machine — instead of a guess at it.
      const reads = 3 + Math.ceil((Date.now() - looked) / 1000) + 1;
      return total >= 40 && counted - total >= 0 && counted - total <= reads ? {total, counted} : undefined;
    }, 60_000).catch(() => {
      throw new Error(`the screen's total is not the reader's counter:\n${screen(session)}`);
    });
    expect(matched.total).toBeLessThanOrEqual(matched.counted);
    await shows(session, /latency ms \(1m\): reader p50 [\d.]+ p95 [\d.]+ p99 [\d.]+ ms/);
    await shows(session, 'status mix (1m)');
    await shows(session, /reader cpu [\d.]+%/);
    // NO_COLOR: not one colour sequence (tmux's own 39/49 defaults are no colour).
    const escapes = tmux('capture-pane', '-p', '-e', '-t', session);
    const colours = (escapes.match(/\u001b\[[0-9;]*m/g) ?? []).filter((sequence) =>
      sequence
        .slice(2, -1)
        .split(';')
        .some((code) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(code)),
    );
    expect(colours).toEqual([]);

    tmux('send-keys', '-t', session, '3');
    await shows(session, 'requests/s (1h)');

    tmux('resize-window', '-t', session, '-x', '20', '-y', '5');
    await shows(session, 'too small');
    tmux('resize-window', '-t', session, '-x', '90', '-y', '28');
    await shows(session, 'requests/s (1h)');
    tmux('resize-window', '-t', session, '-x', '160', '-y', '45');
    await shows(session, 'top incidents');

    reader.kill('SIGTERM');
    await shows(session, 'reader stopped');
    tmux('send-keys', '-t', session, 'q');
    await shows(session, 'EXITED-0');
  });

  it('opens from the TUI on D and gives the terminal back on q with the focused pane as it was', {timeout: 180_000}, async () => {
    const session = 'tui';
    tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '160',
      '-y',
      '45',
      `env -u CI -u CONTINUOUS_INTEGRATION ${environment()} ${process.execPath} ${cliPath} demo; echo EXITED-$?; sleep 60`,
    );
    await shows(session, /web\s.*running/, 40_000);
    tmux('send-keys', '-t', session, '2');
    const before = await shows(session, /process:(web|worker)/, 40_000);
    expect(before).toContain('2 Incidents');
    tmux('send-keys', '-t', session, 'D');
    await shows(session, /window 1m \[1 1m, 2 15m, 3 1h, w next\]/);
    tmux('send-keys', '-t', session, 'q');
    // The dashboard's own incidents table names process:web too: the TUI is back once the
    // dashboard's window line is gone and the incidents are drawn again.
    const after = await eventually(
      () => {
        const text = screen(session);
        return !text.includes('window 1m') && /process:(web|worker)/.test(text) ? text : undefined;
      },
      20_000,
      100,
    ).catch(() => {
      throw new Error(`the TUI did not come back after q:\n${screen(session)}`);
    });
    expect(after).toContain('2 Incidents');
    // Keys reach the TUI again: ? opens the help of the pane that was focused before D.
    tmux('send-keys', '-t', session, '?');
    await shows(session, 'Keys — Incidents');
    tmux('send-keys', '-t', session, 'Escape');
    // A lone ESC is Escape only once no key follows right behind it (ESC q would read as Alt-q):
    // q goes once the help has closed.
    await eventually(() => !screen(session).includes('Keys — Incidents') || undefined, 20_000, 100);
    tmux('send-keys', '-t', session, 'q');
    await shows(session, 'EXITED-0', 30_000);
  });

  it('says what to start when nothing runs, and shows a /metrics answering garbage as such', {timeout: 120_000}, async () => {
    const session = 'empty';
    const home = join(sandbox.dir, 'empty-home');
    tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '120',
      '-y',
      '36',
      `env -u CI -u CONTINUOUS_INTEGRATION ${environment({WORKBENCH_HOME: home})} ${process.execPath} ${cliPath} dashboard --no-daemon; echo EXITED-$?; sleep 60`,
    );
    await shows(session, 'nothing to chart: start workbench serve reader|gateway|graphql or a dev server');
    const garbage = createServer((_request, response) => response.writeHead(200, {'content-type': 'text/plain'}).end('<html>not metrics</html>\n'));
    await new Promise<void>((done) => garbage.listen(0, '127.0.0.1', done));
    try {
      const address = garbage.address() as {port: number};
      const url = `http://127.0.0.1:${address.port}`;
      mkdirSync(join(home, 'services'), {recursive: true});
      writeFileSync(join(home, 'services/gateway.json'), JSON.stringify({name: 'gateway', url, health: `${url}/health`, pid: process.pid, startedAt: new Date().toISOString()}));
      await shows(session, 'gateway: /metrics answered garbage');
      await shows(session, 'gateway garbage');
      tmux('send-keys', '-t', session, 'Escape');
      await shows(session, 'EXITED-0');
    } finally {
      await new Promise((done) => garbage.close(done));
    }
  });
});
