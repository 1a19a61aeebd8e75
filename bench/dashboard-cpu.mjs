// The dashboard's own CPU at its 1 s refresh with every chart live, in a real terminal (tmux,
// 160×45): a served reader with a steady request loop, the daemon (alert ring, processes), over
// BENCH_SECONDS (60), from /proc/<pid>/stat, against the target (3 % of a core) and `top -b -d 1`
// (htop/btop are interactive only) refreshing at the same size in the same run.
// Figures, not assertions. Needs `node scripts/build.mjs` first (runs dist/source/cli.js), tmux, Linux.
import {execFileSync, spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'source', 'cli.js');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const TARGET_PERCENT = 3;
const TICKS = 100; // USER_HZ on Linux
const dir = mkdtempSync(join(tmpdir(), 'wb-bench-dash-'));
const env = {
  ...process.env,
  WORKBENCH_HOME: join(dir, 'home'),
  XDG_CONFIG_HOME: join(dir, 'config'),
  HOME: dir,
  XDG_RUNTIME_DIR: join(dir, 'run'),
  TMUX: '',
  TERM: 'xterm-256color',
};
delete env.CI;
const socket = join(dir, 'tmux.sock');
const tmux = (...args) => execFileSync('tmux', ['-S', socket, ...args], {env, encoding: 'utf8'});
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

/** The process under a tmux pane whose command line contains `marker` (the shell may stand between). */
function paneProcess(session, marker) {
  let pids = [tmux('display', '-p', '-t', session, '#{pane_pid}').trim()];
  for (let depth = 0; depth < 4; depth++) {
    for (const pid of pids) {
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) return Number(pid);
      } catch {
        // Gone.
      }
    }
    pids = pids.flatMap((pid) => {
      try {
        return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
      } catch {
        return [];
      }
    });
  }
  throw new Error(`no process "${marker}" under tmux session ${session}`);
}

async function waitFor(check, what, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

const reader = spawn(process.execPath, [cli, 'serve', 'reader', '--port', '0'], {env, stdio: 'ignore'});
let traffic;
try {
  const url = await waitFor(() => {
    try {
      return JSON.parse(readFileSync(join(env.WORKBENCH_HOME, 'services/reader.json'), 'utf8')).url;
    } catch {
      return undefined;
    }
  }, 'the reader');
  // ~20 requests a second, a 404 among them, so the rate, latency and status charts all move.
  let count = 0;
  traffic = setInterval(() => void fetch(`${url}/api/v1/${count++ % 5 === 0 ? 'missing' : 'health'}`).catch(() => undefined), 50);
  tmux('new-session', '-d', '-s', 'dash', '-x', '160', '-y', '45', `${process.execPath} ${cli} dashboard`);
  tmux('new-session', '-d', '-s', 'top', '-x', '160', '-y', '45', 'top -b -d 1');
  await waitFor(() => tmux('capture-pane', '-p', '-t', 'dash').includes('total reader='), 'the dashboard');
  await sleep(3000);
  const dashboard = paneProcess('dash', 'dashboard');
  const top = paneProcess('top', 'top');
  const before = [cpuTicks(dashboard), cpuTicks(top)];
  await sleep(SECONDS * 1000);
  const after = [cpuTicks(dashboard), cpuTicks(top)];
  const percent = (index) => (((after[index] - before[index]) / TICKS / SECONDS) * 100).toFixed(2);
  console.log(`dashboard (1 s refresh, every chart live, 160x45, ${SECONDS} s): ${percent(0)} % of a core (target < ${TARGET_PERCENT} %)`);
  console.log(`peer top -b -d 1 (same size, same run):                 ${percent(1)} % of a core`);
  tmux('send-keys', '-t', 'dash', 'q');
} finally {
  clearInterval(traffic);
  try {
    tmux('kill-server');
  } catch {
    // Gone.
  }
  reader.kill('SIGTERM');
  try {
    execFileSync(process.execPath, [cli, 'daemon', 'stop'], {env, stdio: 'ignore'});
  } catch {
    // No daemon.
  }
  rmSync(dir, {recursive: true, force: true});
}
