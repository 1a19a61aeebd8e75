// CLI figures of issue 2: `--help` cold start (< 400 ms median), `get-errors --raw` end to end
// (< 300 ms median, process start included), and the idle daemon's CPU with 5 chatty processes
// (< 2% of one core). Each is shown next to bare `node -e 0`, the floor any Node CLI pays.
import {execFileSync, spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

const cli = fileURLToPath(new URL('../dist/source/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wb-bench-'));
const env = {...process.env, WORKBENCH_HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config')};

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timeRuns(args, runs = 15) {
  const times = [];
  for (let i = 0; i < runs + 2; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, {env, encoding: 'utf8'});
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
    if (i >= 2) times.push(ms);
  }
  return median(times);
}

function verdict(value, target) {
  return value < target ? 'PASS' : 'FAIL';
}

const floor = timeRuns(['-e', '0']);
const help = timeRuns([cli, '--help']);
console.log(`--help cold start: median ${help.toFixed(0)} ms (bare node ${floor.toFixed(0)} ms, ratio ${(help / floor).toFixed(2)}x) target < 400 ms ${verdict(help, 400)}`);

try {
  // A daemon with a few hundred real alerts: processes that print errors.
  execFileSync(process.execPath, [cli, 'daemon', 'start'], {env});
  for (let i = 0; i < 5; i++) {
    execFileSync(
      process.execPath,
      [
        cli,
        'run',
        '--id',
        `err${i}`,
        '--cmd',
        `for n in $(seq 1 100); do echo "TypeError: cannot read x$n of undefined"; echo "    at handler (/app/src/route${i}.js:$n:5)"; echo; done; sleep 600`,
      ],
      {env},
    );
  }
  const raw = timeRuns([cli, 'get-errors', '--raw']);
  console.log(
    `get-errors --raw end to end: median ${raw.toFixed(0)} ms (bare node ${floor.toFixed(0)} ms, ratio ${(raw / floor).toFixed(2)}x) target < 300 ms ${verdict(raw, 300)}`,
  );

  for (let i = 0; i < 5; i++) execFileSync(process.execPath, [cli, 'proc', 'stop', `err${i}`], {env});
  for (let i = 0; i < 5; i++) {
    execFileSync(process.execPath, [cli, 'run', '--id', `chatty${i}`, '--cmd', `while true; do echo "GET /api/items/$RANDOM 200 3ms"; sleep 0.1; done`], {env});
  }
  await new Promise((done) => setTimeout(done, 1000));
  const pid = Number.parseInt(readFileSync(join(env.WORKBENCH_HOME, 'daemon.pid'), 'utf8'), 10); // first line: the pid
  const ticks = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  const hz = Number(execFileSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}));
  const seconds = 10;
  const before = ticks();
  await new Promise((done) => setTimeout(done, seconds * 1000));
  const cpu = ((ticks() - before) / hz / seconds) * 100;
  console.log(`idle daemon with 5 chatty processes (50 lines/s): ${cpu.toFixed(2)}% of one core, target < 2% ${verdict(cpu, 2)}`);
} finally {
  spawnSync(process.execPath, [cli, 'daemon', 'stop'], {env});
  rmSync(dir, {recursive: true, force: true});
}
