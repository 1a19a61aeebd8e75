// `workbench feeds parse` on inputs with no end, through the built CLI: one line, exit 1.
import {execFileSync} from 'node:child_process';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = makeSandbox('wb-parse-bounds-');
});
afterAll(() => sandbox.cleanup());

describe('workbench feeds parse, bounded like the network path', () => {
  it('/dev/zero is a one-line error at the 15 MB cap, not an out-of-memory crash', async () => {
    const result = await runCli(['feeds', 'parse', '/dev/zero'], {env: sandbox.env, timeoutMs: 60_000});
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('workbench: /dev/zero is larger than 15 MB, the cap on a feed\n');
    expect(result.stdout).toBe('');
  });

  it('a FIFO nobody writes to is a one-line error, not a hang', async () => {
    const fifo = join(sandbox.dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const result = await runCli(['feeds', 'parse', fifo], {env: sandbox.env, timeoutMs: 60_000});
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('workbench: not a feed: the document is empty\n');
  });
});
