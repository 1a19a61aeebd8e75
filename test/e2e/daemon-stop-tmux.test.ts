import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {join} from 'node:path';
import {cliPath, makeSandbox, repoRoot, runCli, type Sandbox} from '../helpers/cli.js';
import {requirePackage} from '../helpers/system-package.js';
import {tmuxDriver} from '../helpers/tmux.js';

// Built program: node scripts/build.mjs before running this.
const hasTmux = !requirePackage('tmux', {for: 'the TUI end-to-end test of a stopped daemon'});

let sandbox: Sandbox;
let term: ReturnType<typeof tmuxDriver>;

describe.skipIf(!hasTmux)('workbench daemon stop under the TUI (tmux)', () => {
  beforeAll(() => {
    sandbox = makeSandbox('wb-stop-tmux-');
    term = tmuxDriver(`${sandbox.dir}/tmux.sock`, 'wb');
    const env = Object.entries({WORKBENCH_HOME: sandbox.home, XDG_CONFIG_HOME: sandbox.config, HOME: sandbox.dir, TERM: 'xterm-256color'})
      .map(([key, value]) => `${key}=${value}`)
      .join(' ');
    term.tmux('new-session', '-d', '-s', 'wb', '-x', '120', '-y', '36', `env -u CI -u CONTINUOUS_INTEGRATION ${env} ${process.execPath} ${cliPath} demo; echo EXITED-$?; sleep 60`);
  });

  afterAll(async () => {
    try {
      term.tmux('kill-server');
    } catch {
      // already gone
    }
    await runCli(['daemon', 'stop'], {env: sandbox.env}).catch(() => undefined);
    await sandbox.cleanup();
  });

  it('the Processes pane stops listing the killed processes as running, and r brings back what the new daemon runs', async () => {
    await term.shows(/web\s.*running/, 30_000);
    const stop = await runCli(['daemon', 'stop'], {env: sandbox.env});
    expect(stop.code).toBe(0);

    await term.shows('they ended with the daemon', 20_000);
    const stopped = term.screen();
    expect(stopped).toContain('daemon stopped — press r to start');
    expect(stopped).not.toMatch(/web\s.*running/);
    expect(stopped).toMatch(/- running · /);

    // r: a new daemon, the demo's autostart scripts with it.
    term.keys('r');
    await term.shows(/web\s.*running/, 30_000);
    expect(term.screen()).not.toContain('they ended with the daemon');
    const listed = JSON.parse((await runCli(['proc', 'list', '--json'], {env: sandbox.env, cwd: join(repoRoot, 'fixtures', 'demo')})).stdout) as Array<{
      id: string;
      status: string;
    }>;
    expect(listed.find((process) => process.id === 'web')?.status).toBe('running');

    term.keys('q');
    await term.shows(/EXITED-0/, 20_000);
  });
});
