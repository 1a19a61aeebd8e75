import {mkdtempSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {eventually, makeSandbox, runCli, spawnCli, type Sandbox} from '../helpers/cli.js';

// `workbench proc output <id> --follow` streams what the process prints until it ends or Ctrl-C
// (issue 7 item 2), on the real daemon the CLI starts.

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox('wb-follow-');
});
afterEach(async () => {
  await runCli(['daemon', 'stop'], {env: sandbox.env}).catch(() => undefined);
  await sandbox.cleanup();
});

function collect(child: ReturnType<typeof spawnCli>) {
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {text: () => text, exited};
}

describe('proc output --follow', () => {
  it('prints the ring, then each new line as it comes, and ends with the exit line when the process ends', async () => {
    const dir = mkdtempSync(join(sandbox.dir, 'project-'));
    // Waits for a file before printing the rest, so the follower is attached before it prints.
    writeFileSync(
      join(dir, 'slow.mjs'),
      `import {existsSync} from 'node:fs';
console.log('before follow');
const timer = setInterval(() => {
  if (!existsSync('go')) return;
  clearInterval(timer);
  let n = 0;
  const tick = setInterval(() => { console.log('tick ' + ++n); if (n === 3) { clearInterval(tick); process.exit(3); } }, 50);
}, 50);
`,
    );
    await runCli(['run', '--cmd', 'node slow.mjs', '--id', 'slow'], {env: sandbox.env, cwd: dir});
    await eventually(async () => (await runCli(['proc', 'output', 'slow'], {env: sandbox.env, cwd: dir})).stdout.includes('before follow'));

    const follower = collect(spawnCli(['proc', 'output', 'slow', '--follow'], {env: sandbox.env, cwd: dir}));
    await eventually(() => follower.text().includes('before follow'));
    writeFileSync(join(dir, 'go'), '');
    expect(await follower.exited).toBe(0);
    const lines = follower.text().trimEnd().split('\n');
    expect(lines).toEqual(['before follow', 'tick 1', 'tick 2', 'tick 3', '── slow exited 3 ──']);
  }, 30_000);

  it('keeps streaming a running process until interrupted', async () => {
    await runCli(['run', '--cmd', `node -e "let n = 0; setInterval(() => console.log('beat ' + ++n), 100)"`, '--id', 'beat'], {env: sandbox.env, cwd: sandbox.dir});
    const child = spawnCli(['proc', 'output', 'beat', '--follow', '--tail', '1'], {env: sandbox.env, cwd: sandbox.dir});
    const follower = collect(child);
    const beats = () => [...follower.text().matchAll(/beat (\d+)/g)].map((match) => Number(match[1]));
    await eventually(() => beats().length >= 4, 15_000);
    // One line of the ring, then every beat after it, none missed or doubled.
    const seen = beats();
    expect(seen).toEqual(Array.from({length: seen.length}, (_, index) => seen[0]! + index));
    child.kill('SIGINT');
    await follower.exited;
  }, 30_000);

  it('refuses --follow with --grep in one line', async () => {
    await runCli(['run', '--cmd', 'echo hi', '--id', 'hi'], {env: sandbox.env, cwd: sandbox.dir});
    const result = await runCli(['proc', 'output', 'hi', '--follow', '--grep', 'x'], {env: sandbox.env, cwd: sandbox.dir});
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('workbench: --follow and --grep cannot be used together yet; pipe the output through grep instead\n');
  });
});
