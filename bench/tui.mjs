// The TUI's idle cost and key latency, on the demo, in a real terminal (tmux):
//  - CPU of the TUI process over an idle window, from /proc/<pid>/stat, at 120×40 and 200×60,
//    against the target (2 % of a core) and a peer idling in the same run (`top -b -d 1`);
//  - key press to screen change (j in the Processes pane, polling `tmux capture-pane`), against 50 ms.
// Figures, not assertions. Needs `node scripts/build.mjs` first (runs dist/cli.js), tmux, Linux.
import {execFileSync, spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {loadavg, tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'source', 'cli.js');
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const TICKS = 100; // USER_HZ on Linux
const home = mkdtempSync(join(tmpdir(), 'wb-bench-tui-'));
const env = {...process.env, WORKBENCH_HOME: join(home, 'home'), XDG_CONFIG_HOME: join(home, 'config'), XDG_RUNTIME_DIR: join(home, 'run'), TMUX: ''};
const socket = join(home, 'tmux.sock');
const tmux = (...args) => execFileSync('tmux', ['-S', socket, ...args], {env, encoding: 'utf8'});
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

/** The node process running dist/cli.js demo under the pane's shell. */
function tuiPid(panePid) {
  for (let depth = 0, pids = [String(panePid)]; depth < 4; depth++) {
    for (const pid of pids) {
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('cli.js\u0000demo')) return Number(pid);
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
  throw new Error('the TUI process was not found');
}

async function waitFor(predicate, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (predicate()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}; screen:\n${tmux('capture-pane', '-p', '-t', 'tui')}`);
}

async function measure(columns, rows) {
  tmux('new-session', '-d', '-s', 'tui', '-x', String(columns), '-y', String(rows), `${process.execPath} ${cli} demo`);
  try {
    const screen = () => tmux('capture-pane', '-p', '-t', 'tui');
    await waitFor(() => /daemon pid \d+/.test(screen()), 'the TUI');
    const pid = tuiPid(Number(tmux('display', '-p', '-t', 'tui', '#{pane_pid}').trim()));
    // Let the demo's first burst of output and alerts settle.
    await sleep(5000);
    const peer = spawn('top', ['-b', '-d', '1'], {stdio: 'ignore'});
    await sleep(200);
    // What the TUI writes to the terminal while idle: every byte is a redraw of something.
    const written = join(home, `written-${columns}x${rows}`);
    tmux('pipe-pane', '-o', '-t', 'tui', `cat > ${written}`);
    const start = {tui: cpuTicks(pid), peer: cpuTicks(peer.pid), at: process.hrtime.bigint()};
    await sleep(IDLE_SECONDS * 1000);
    const seconds = Number(process.hrtime.bigint() - start.at) / 1e9;
    tmux('pipe-pane', '-t', 'tui');
    const bytes = readFileSync(written).length;
    // Frames start at the cursor's home (frameWriter.ts).
    const frames = readFileSync(written, 'latin1').split('\u001b[H').length - 1;
    const tui = ((cpuTicks(pid) - start.tui) / TICKS / seconds) * 100;
    const top = ((cpuTicks(peer.pid) - start.peer) / TICKS / seconds) * 100;
    peer.kill();

    // Key → screen: j moves the Processes pane's selection; the time until the capture differs.
    const latencies = [];
    for (let index = 0; index < 10; index++) {
      const before = screen();
      const key = index % 2 === 0 ? 'j' : 'k';
      const sent = process.hrtime.bigint();
      tmux('send-keys', '-t', 'tui', key);
      const deadline = Date.now() + 2000;
      while (Date.now() < deadline && screen() === before) await sleep(1);
      latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
      await sleep(200);
    }
    latencies.sort((a, b) => a - b);
    return {
      size: `${columns}×${rows}`,
      tui,
      top,
      framesPerSecond: frames / seconds,
      bytesPerSecond: bytes / seconds,
      median: latencies[Math.floor(latencies.length / 2)],
      worst: latencies.at(-1),
    };
  } finally {
    tmux('send-keys', '-t', 'tui', 'q');
    await sleep(500);
    try {
      tmux('kill-server');
    } catch {
      // Already gone with its last session.
    }
  }
}

try {
  const results = [];
  for (const [columns, rows] of [
    [120, 40],
    [200, 60],
  ])
    results.push(await measure(columns, rows));
  console.log(
    `load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  console.log(`idle ${IDLE_SECONDS} s with the demo running; target: TUI under 2 % of a core, key → screen under 50 ms`);
  for (const result of results) {
    console.log(
      `${result.size.padEnd(8)} TUI ${result.tui.toFixed(2)} % cpu (${result.tui < 2 ? 'under' : 'OVER'} 2 %), ${result.framesPerSecond.toFixed(1)} frames/s, ${Math.round(result.bytesPerSecond)} B/s · top -b -d 1 ${result.top.toFixed(2)} % · key → screen median ${result.median.toFixed(1)} ms, worst ${result.worst.toFixed(1)} ms (${result.worst < 50 ? 'under' : 'OVER'} 50 ms; includes tmux capture)`,
    );
  }
} finally {
  try {
    execFileSync(process.execPath, [cli, 'daemon', 'stop'], {env, stdio: 'ignore'});
  } catch {
    // Not running.
  }
  rmSync(home, {recursive: true, force: true});
}
