import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import type {Browser} from 'playwright-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {launchChromium} from '../../source/browser/chromium.js';
import {cliPath, makeSandbox, runCli, runCliJson, type Sandbox} from '../helpers/cli.js';
import {requirePackage} from '../helpers/system-package.js';
import {startTargetApp, type TargetApp} from '../helpers/target-app.js';
import {tmuxDriver} from '../helpers/tmux.js';

// The Incidents pane of the real program (dist/) in a real terminal (tmux), with a dev proxy in the
// daemon in front of a small target server and no process alert (the project runs nothing; the one
// process is the Feeds pane's quiet reader), so no `alerts` event can refresh anything: a proxied 500 and a TypeError thrown by a page in headless Chromium must reach the
// pane, its tab count and the status bar on the inbox's own event. Each is waited for with a
// bound of 5 s (the pane changes within a second; before the inbox event it took a minute or more).

const hasTmux = !requirePackage('tmux', {for: 'the live Incidents pane end-to-end test'});
const hasChromium = !requirePackage('chromium', {for: 'the live Incidents pane end-to-end test'});

const LIVE_MS = 5_000;

let sandbox: Sandbox;
let target: TargetApp;
let browser: Browser | undefined;
let driver: ReturnType<typeof tmuxDriver>;
// The folder the TUI runs in: the CLI reads its processes from there too.
let project: string;
const session = 'wbinbox';

describe.skipIf(!hasTmux || !hasChromium)('the Incidents pane, live on proxy and browser errors (tmux, Chromium)', () => {
  beforeAll(async () => {
    sandbox = makeSandbox('wb-inboxtmux-');
    driver = tmuxDriver(`${sandbox.dir}/tmux.sock`, session);
    target = await startTargetApp();
    // A project with nothing to run: no scripts, no .workbench.kdl, so nothing autostarts.
    project = join(sandbox.dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'quiet-shop', private: true, scripts: {}}));
    const env = Object.entries({WORKBENCH_HOME: sandbox.home, XDG_CONFIG_HOME: sandbox.config, HOME: sandbox.dir, TERM: 'xterm-256color'})
      .map(([key, value]) => `${key}=${value}`)
      .join(' ');
    driver.tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '160',
      '-y',
      '45',
      '-c',
      project,
      `env -u CI -u CONTINUOUS_INTEGRATION ${env} ${process.execPath} ${cliPath}; echo EXITED-$?; sleep 60`,
    );
  });

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    try {
      driver?.tmux('kill-server');
    } catch {
      // already gone
    }
    await target?.close();
    await runCli(['daemon', 'stop'], {env: sandbox.env}).catch(() => undefined);
    await sandbox?.cleanup();
  });

  it('shows a proxied 500 and a page TypeError in the pane, its tab and the status bar within seconds, with no process alert', async () => {
    // The daemon is up (the status bar names its pid) and the inbox is empty.
    await driver.shows(/daemon pid \d+ · project/, 30_000);
    await driver.shows('2 Incidents (0)', 10_000);
    await driver.focus(2);
    await driver.shows(/0 errors · 0 warnings/, 5_000);

    const proxy = await runCliJson<{url: string}>(['proxy', 'start', 'shop', '--target', target.url], {env: sandbox.env});
    // The one process is the Feeds pane's reader the TUI starts, quiet: the alert ring stays empty.
    const quiet = async () => {
      const processes = await runCliJson<Array<{id: string; alertCount: number}>>(['proc', 'list'], {env: sandbox.env, cwd: project});
      expect(processes.map(({id, alertCount}) => [id, alertCount])).toEqual([['reader', 0]]);
    };
    await quiet();

    // A proxied 500: the pane lists it and the tab counts it, on the inbox event alone.
    const answer = await fetch(`${proxy.url}/api/boom`);
    expect(answer.status).toBe(500);
    await answer.arrayBuffer();
    await driver.shows('2 Incidents (1)', LIVE_MS);
    await driver.shows(/proxy:http\s+500 Internal Ser.*GET \/api\/boom/, LIVE_MS);
    await driver.shows(/1 error · 0 warnings/, LIVE_MS);

    // A page's TypeError, thrown in headless Chromium and reported by the injected script.
    browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(`${proxy.url}/throws`);
    await driver.shows('2 Incidents (2)', LIVE_MS);
    await driver.shows(/browser:js\s+TypeError\s.*Cannot read properties of undefined \(reading 'total'\)/, LIVE_MS);
    await driver.shows(/2 errors · 0 warnings/, LIVE_MS);

    // What the pane shows is what get-incidents lists, and still no process alerted.
    const listed = await runCliJson<Array<{source: string}>>(['get-incidents'], {env: sandbox.env, cwd: project});
    expect(listed.map((incident) => incident.source).sort()).toEqual(['browser:js', 'proxy:http']);
    await quiet();

    driver.keys('q');
    await driver.shows('EXITED-0', 10_000);
  }, 90_000);
});
