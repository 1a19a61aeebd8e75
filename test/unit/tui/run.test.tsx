import {EventEmitter} from 'node:events';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {startInProcessDaemon, type InProcessDaemon} from './daemonHarness.js';

// ink decides once, when it loads, whether it runs in CI, and there draws only a final frame. The
// TUI's entry (source/cli/open-tui.ts) hides CI while it loads ink; so does this test, which CI runs.
const ciKeys = ['CI', 'CONTINUOUS_INTEGRATION'];
const savedCi = ciKeys.map((key) => process.env[key]);
for (const key of ciKeys) if (process.env[key] !== undefined) process.env[key] = 'false';
const {runTui} = await import('../../../source/tui/run.js');
ciKeys.forEach((key, index) => {
  if (savedCi[index] === undefined) delete process.env[key];
  else process.env[key] = savedCi[index];
});

class FakeTerminalOut extends EventEmitter {
  isTTY = true;
  columns = 100;
  rows = 30;
  chunks: string[] = [];
  write = (chunk: string | Uint8Array) => {
    this.chunks.push(String(chunk));
    return true;
  };
  get text() {
    return this.chunks.join('');
  }
}

class FakeTerminalIn extends EventEmitter {
  isTTY: boolean;
  private pending: string | null = null;
  constructor(isTTY = true) {
    super();
    this.isTTY = isTTY;
  }
  setRawMode() {
    return this;
  }
  setEncoding() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => {
    const data = this.pending;
    this.pending = null;
    return data;
  };
  type(data: string) {
    this.pending = data;
    this.emit('readable');
  }
}

let daemon: InProcessDaemon;

beforeEach(async () => {
  daemon = await startInProcessDaemon();
});

afterEach(async () => {
  await daemon.close();
});

describe('runTui', () => {
  it('draws on the alternate screen and gives the normal screen back when the user quits', async () => {
    await daemon.run('node web.mjs', 'web');
    const stdout = new FakeTerminalOut();
    const stdin = new FakeTerminalIn();
    const done = runTui(daemon.ports, {stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, patchConsole: false});
    // The daemon's answer is on the screen before the user quits.
    await vi.waitFor(() => expect(stdout.text).toContain('ready on http://localhost:3000'), {timeout: 20_000});
    stdin.type('q');
    await done;

    const text = stdout.text;
    expect(text.startsWith('\u001b[?1049h')).toBe(true);
    expect(text).toContain('Processes');
    const left = text.lastIndexOf('\u001b[?1049l');
    expect(left).toBeGreaterThan(text.lastIndexOf('Processes'));
    expect(text.slice(left - 6, left)).toBe('\u001b[?25h');
  });

  it('refuses to start without an interactive terminal', async () => {
    const stdout = new FakeTerminalOut();
    await expect(runTui(daemon.ports, {stdout: stdout as unknown as NodeJS.WriteStream, stdin: new FakeTerminalIn(false) as unknown as NodeJS.ReadStream})).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    expect(stdout.text).toBe('');
  });
});
