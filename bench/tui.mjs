// The TUI's idle cost and key latency, on the demo, in a real terminal (tmux):
//  - CPU of the TUI process over an idle window, from /proc/<pid>/stat, at 120×40 and 200×60,
//    against the target (2 % of a core) and htop idling at the same size in the same run (`top -b`
//    when htop is not installed). Two views: the default one (web's output, a line a second, in
//    view) and a quiet one (the reader selected: only clocks could change). The demo runs past its
//    first minute first, as a TUI left open does (uptimes then move once a minute);
//  - key press to screen change (j/k in the Processes pane, polling `tmux capture-pane`), against
//    50 ms, and the same measurement on a pane running `cat` (the floor: tmux and the polling).
// Figures, not assertions. Needs `node scripts/build.mjs` first (runs dist/source/cli.js), tmux, Linux.
//   BENCH_IDLE_SECONDS (20)  BENCH_SETTLE_SECONDS (65)  BENCH_KEY_PRESSES (30)
import {execFileSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {loadavg, tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'source', 'cli.js');
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 65);
const KEY_PRESSES = Number(process.env.BENCH_KEY_PRESSES ?? 30);
const TICKS = 100; // USER_HZ on Linux
const home = mkdtempSync(join(tmpdir(), 'wb-bench-tui-'));
const env = {...process.env, WORKBENCH_HOME: join(home, 'home'), XDG_CONFIG_HOME: join(home, 'config'), XDG_RUNTIME_DIR: join(home, 'run'), TMUX: ''};
// A tmux server per size: a new session on a server still exiting fails.
let socket;
const tmux = (...args) => execFileSync('tmux', ['-S', socket, ...args], {env, encoding: 'utf8'});
const screen = (session) => tmux('capture-pane', '-p', '-t', session);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const htop = (() => {
  try {
    execFileSync('htop', ['--version'], {stdio: 'ignore'});
    return true;
  } catch {
    return false;
  }
})();

function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

/** The process under a tmux pane whose command line contains `marker` (the shell may stand between). */
function paneProcess(session, marker) {
  const panePid = tmux('display', '-p', '-t', session, '#{pane_pid}').trim();
  for (let depth = 0, pids = [panePid]; depth < 4; depth++) {
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
  throw new Error(`no process ${JSON.stringify(marker)} under the pane ${session}`);
}

async function waitFor(predicate, what, session, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (predicate()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}; screen:\n${screen(session)}`);
}

/** CPU (% of a core) of the TUI and the peer, and what the TUI wrote to its terminal, over one idle window. */
async function idle(tui, peer, label) {
  const written = join(home, `written-${label}`);
  tmux('pipe-pane', '-o', '-t', 'tui', `cat > ${written}`);
  const start = {tui: cpuTicks(tui), peer: cpuTicks(peer), at: process.hrtime.bigint()};
  await sleep(IDLE_SECONDS * 1000);
  const seconds = Number(process.hrtime.bigint() - start.at) / 1e9;
  const ticks = {tui: cpuTicks(tui) - start.tui, peer: cpuTicks(peer) - start.peer};
  tmux('pipe-pane', '-t', 'tui');
  const output = readFileSync(written, 'latin1');
  // Each frame drawn is in synchronized-output brackets; a frame that changed nothing writes none (frameWriter.ts).
  const frames = output.split('\u001b[?2026h').length - 1;
  return {
    tui: (ticks.tui / TICKS / seconds) * 100,
    peer: (ticks.peer / TICKS / seconds) * 100,
    framesPerSecond: frames / seconds,
    cpuPerFrameMs: frames > 0 ? (ticks.tui / TICKS / frames) * 1000 : 0,
    bytesPerSecond: output.length / seconds,
  };
}

/** Milliseconds from `send-keys` to the first capture that differs, for each key of `keys(index)`. */
async function keyLatencies(session, keys) {
  const latencies = [];
  for (let index = 0; index < KEY_PRESSES; index++) {
    const before = screen(session);
    const sent = process.hrtime.bigint();
    tmux('send-keys', '-t', session, keys(index));
    const deadline = Date.now() + 2000;
    while (Date.now() < deadline && screen(session) === before) await sleep(1);
    latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
    // Not in step with the demo's once-a-second output: presses land anywhere between its frames.
    await sleep(150 + ((index * 97) % 200));
  }
  latencies.sort((a, b) => a - b);
  return {median: latencies[Math.floor(latencies.length / 2)], worst: latencies.at(-1)};
}

let demoStartedAt;

async function measure(columns, rows) {
  let peer;
  const size = ['-x', String(columns), '-y', String(rows)];
  socket = join(home, `tmux-${columns}x${rows}.sock`);
  tmux('new-session', '-d', '-s', 'tui', ...size, `${process.execPath} ${cli} demo`);
  tmux('new-session', '-d', '-s', 'peer', ...size, htop ? 'htop' : 'exec top -b -d 1 > /dev/null');
  tmux('new-session', '-d', '-s', 'floor', ...size, 'cat');
  try {
    await waitFor(() => /daemon pid \d+/.test(screen('tui')) && /web\s+running/.test(screen('tui')), 'the TUI with the demo running', 'tui');
    demoStartedAt ??= Date.now();
    const tui = paneProcess('tui', 'cli.js\u0000demo');
    peer = paneProcess('peer', 'top');
    // Past the demo's first minute, and its first burst of output and alerts settled.
    await sleep(Math.max(5000, SETTLE_SECONDS * 1000 - (Date.now() - demoStartedAt)));
    const shown = await idle(tui, peer, `${columns}x${rows}-shown`);
    // j j: the reader, which prints nothing while nobody reads feeds.
    tmux('send-keys', '-t', 'tui', 'j', 'j');
    await waitFor(() => /▸ reader/.test(screen('tui')), 'the reader selected', 'tui');
    await sleep(1000);
    const quiet = await idle(tui, peer, `${columns}x${rows}-quiet`);
    tmux('send-keys', '-t', 'tui', 'k', 'k');
    await waitFor(() => /▸ web/.test(screen('tui')), 'web selected', 'tui');
    await sleep(500);
    // Key → screen: j and k move the Processes pane's selection between web and worker.
    const keys = await keyLatencies('tui', (index) => (index % 2 === 0 ? 'j' : 'k'));
    const floor = await keyLatencies('floor', (index) => String.fromCharCode(97 + (index % 26)));
    return {size: `${columns}×${rows}`, shown, quiet, keys, floor};
  } finally {
    tmux('send-keys', '-t', 'tui', 'q');
    await waitFor(
      () => {
        try {
          return !screen('tui').includes('daemon pid');
        } catch {
          return true;
        }
      },
      'the TUI to quit',
      'tui',
    ).catch(() => {});
    try {
      tmux('kill-server');
    } catch {
      // Already gone with its last session.
    }
    // `top -b` (the peer when htop is missing) outlives the hang-up of its tmux pane (exec: the pane is top itself, so that is what is measured and ended).
    try {
      if (peer) process.kill(peer);
    } catch {
      // Gone with the pane.
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
  const peerName = htop ? 'htop' : 'top -b -d 1';
  console.log(
    `load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `idle ${IDLE_SECONDS} s with the demo running (past its first minute); target: TUI under 2 % of a core, key → screen under 50 ms; peer: ${peerName} at the same size`,
  );
  const percent = (value) => `${value.toFixed(2)} %`;
  for (const result of results) {
    for (const [view, figures] of [
      ['web output in view', result.shown],
      ['quiet process in view', result.quiet],
    ]) {
      console.log(
        `${result.size.padEnd(8)} ${view.padEnd(22)} TUI ${percent(figures.tui)} cpu (${figures.tui < 2 ? 'under' : 'OVER'} 2 %; ${(figures.tui / Math.max(figures.peer, 0.01)).toFixed(1)}× ${peerName} ${percent(figures.peer)}), ${figures.framesPerSecond.toFixed(2)} frames/s, ${figures.cpuPerFrameMs.toFixed(1)} ms cpu per frame, ${Math.round(figures.bytesPerSecond)} B/s`,
      );
    }
    console.log(
      `${result.size.padEnd(8)} key → screen over ${KEY_PRESSES} presses: median ${result.keys.median.toFixed(1)} ms, worst ${result.keys.worst.toFixed(1)} ms (${result.keys.worst < 50 ? 'under' : 'OVER'} 50 ms) · the same on \`cat\` (tmux and polling alone): median ${result.floor.median.toFixed(1)} ms, worst ${result.floor.worst.toFixed(1)} ms`,
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
