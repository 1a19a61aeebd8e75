import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

/** The command line a new user meets (issue 7, item 15). */
let sandbox: Sandbox;
beforeEach(() => (sandbox = makeSandbox()));
afterEach(() => sandbox.cleanup());

describe('workbench usage errors', () => {
  it('names the close match of an unknown subcommand', async () => {
    const result = await runCli(['proc', 'lsit'], {env: sandbox.env});
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^workbench: unknown command "proc lsit"\. Did you mean list\?/);
    const feeds = await runCli(['feeds', 'ad', 'http://127.0.0.1:9/'], {env: sandbox.env});
    expect(feeds.code).toBe(1);
    expect(feeds.stderr).toContain('Did you mean add?');
  });

  it('exits 1 from `serve` without a server name, like every other usage error', async () => {
    const result = await runCli(['serve'], {env: sandbox.env});
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('workbench serve reader');
  });

  it('accepts get-errors --json as --raw', async () => {
    const result = await runCli(['get-errors', '--json', '--no-daemon'], {env: sandbox.env});
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([]);
  });

  it('words validation errors as sentences naming the flag', async () => {
    const result = await runCli(['run', '--cmd', ''], {env: sandbox.env});
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('workbench: --cmd must not be empty.\n');
  });
});
