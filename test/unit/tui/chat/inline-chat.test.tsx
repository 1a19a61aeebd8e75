import {EventEmitter} from 'node:events';
import {existsSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {createAskerRelay, runInlineChat} from '../../../../source/cli/agent/inline-chat.js';
import {stripAnsi} from '../../../../source/text/ansi.js';
import {ANSWER, ENDPOINT, FAILURE, PROMPT, scriptedChat} from '../../../helpers/chat-session.js';

// Colours on, before ink loads: NO_COLOR is then seen taking them off.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
  // ink draws only its last frame when it thinks it runs in CI (is-in-ci, read when ink loads):
  // the inline chat is for a terminal, so the test is one, CI or not.
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
});

// `workbench agent` with no prompt on a TTY, through runInlineChat as the command calls it, on
// ink's normal (not full-screen) render: a terminal-sized stdout that records every write, a stdin
// that types. Sessions come from test/helpers/chat-session.ts.

class Terminal extends EventEmitter {
  isTTY = true;
  columns = 100;
  rows = 30;
  writes: string[] = [];
  write = (chunk: string) => (this.writes.push(chunk), true);
  text = () => stripAnsi(this.writes.join(''));
}

class Keyboard extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  type = (data: string) => {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  };
  read = () => {
    const data = this.data;
    this.data = null;
    return data;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

// A write that moves the cursor or erases (ink's redraw of the live part), as opposed to printed output.
const REDRAW = /\u001b\[\d*[ABGKJ]/;

let quit: (() => Promise<void>) | undefined;
let home: string;
beforeEach(() => {
  // The chat keeps its messages in WORKBENCH_HOME: a private one per test.
  home = mkdtempSync(join(tmpdir(), 'wb-inline-chat-'));
  vi.stubEnv('WORKBENCH_HOME', home);
});
afterEach(async () => {
  await quit?.();
  quit = undefined;
  vi.unstubAllEnvs();
  rmSync(home, {recursive: true, force: true});
});

async function startInline(env: NodeJS.ProcessEnv = {}) {
  const chat = await scriptedChat();
  const relay = createAskerRelay();
  const session = await chat.openers.openAgent(relay.ask);
  const stdout = new Terminal();
  const stdin = new Keyboard();
  const closed = vi.fn();
  const close = session.close.bind(session);
  session.close = async () => (closed(), close());
  const done = runInlineChat(session, {asker: relay, stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, env});
  const waitFor = (predicate: (text: string) => boolean, what: string) =>
    vi.waitFor(
      () => {
        if (!predicate(stdout.text())) throw new Error(`${what} not written; output:\n${stdout.text().slice(-3000)}`);
      },
      {timeout: 10_000, interval: 10},
    );
  const press = async (...keys: string[]) => {
    for (const key of keys) {
      stdin.type(key);
      // ink reads a lone ESC as Escape on its setImmediate after the read: ours runs after it (renderApp.tsx).
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
  };
  /** Sends a message and waits until its turn is over (the foot line offers to send again). */
  const send = async (text: string) => {
    const before = stdout.writes.length;
    await press(text, '\r');
    await vi.waitFor(
      () => {
        const after = stripAnsi(stdout.writes.slice(before).join(''));
        if (!after.includes(`> ${text}`) || !/enter send · ↑↓ history[^\n]*$/.test(after.trimEnd())) throw new Error(`turn of ${text} not over:\n${after.slice(-2000)}`);
      },
      {timeout: 10_000, interval: 10},
    );
  };
  quit = async () => {
    // Ctrl-E Ctrl-U empty the box (Ctrl-D quits only from an empty one).
    await press('\u0005', '\u0015', '\u0004');
    await done;
  };
  return {chat, stdout, stdin, press, send, waitFor, done, closed};
}

const printed = (writes: string[], text: string) => writes.filter((chunk) => !REDRAW.test(chunk) && stripAnsi(chunk).includes(text)).length;

describe('the inline chat of `workbench agent`', () => {
  it('prints the auth row and each finished turn once (ink Static): later redraws never write them again', async () => {
    const {stdout, send} = await startInline();
    await vi.waitFor(() => expect(stdout.text()).toContain(`auth: MESSAGES_API_KEY -> ${ENDPOINT}`), {timeout: 10_000});
    await send('first');
    const mark = stdout.writes.length;
    await send('second');
    await send('third');
    expect(stdout.text()).toContain('You said: third');
    expect(printed(stdout.writes, `auth: MESSAGES_API_KEY -> ${ENDPOINT}`)).toBe(1);
    expect(printed(stdout.writes, 'You said: first')).toBe(1);
    expect(printed(stdout.writes, 'You said: second')).toBe(1);
    // After its turn ended, the first turn is in the scrollback only: nothing written since holds it.
    expect(stripAnsi(stdout.writes.slice(mark).join(''))).not.toContain('You said: first');
    expect(stripAnsi(stdout.writes.slice(mark).join(''))).not.toContain('> first');
  });

  it('streams the live turn, asks permission inline, sums tokens, and closes the session on ctrl-d', async () => {
    const {chat, stdout, press, send, waitFor, done, closed} = await startInline();
    const release = chat.holdAnswer();
    await press(PROMPT.hello + '\r');
    await waitFor((text) => text.includes('Hello there, friend.') && text.includes('esc/ctrl-c cancel'), 'the streamed text');
    expect(printed(stdout.writes, ANSWER.hello)).toBe(0);
    release();
    await waitFor((text) => text.includes('tokens: 120 in, 30 out'), 'the usage row');
    await press(PROMPT.shell, '\r');
    await waitFor((text) => text.includes('? run npm test — asks: no rule matches; shell asks by default') && text.includes('[y] allow [a] always [n] deny'), 'the prompt');
    await press('n');
    await waitFor((text) => text.includes(ANSWER.shell), 'the answer');
    expect(chat.asked.map((entry) => entry.answer)).toEqual(['deny']);
    await waitFor((text) => text.includes('tokens 320 in · 50 out'), 'the summed tokens');
    expect(stdout.text()).toContain('✗ shell npm test → refused: Not run: denied by you when asked');
    void send;
    quit = undefined;
    await press('\u0004');
    await done;
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it('cancels a running turn with ctrl-c without quitting, and copies the last answer with ctrl-y (OSC 52)', async () => {
    const {stdout, press, send, waitFor} = await startInline();
    await send(PROMPT.hello);
    await press(PROMPT.slow, '\r');
    await waitFor((text) => text.includes('Thinking'), 'the slow turn');
    await press('\u0003');
    await waitFor((text) => text.includes('error: cancelled'), 'the cancel');
    await press('\u0019');
    await waitFor((text) => text.includes('copied the last answer'), 'the copy');
    expect(stdout.writes.join('')).toContain(`\u001b]52;c;${Buffer.from(ANSWER.hello).toString('base64')}\u0007`);
  });

  it('writes no colour with NO_COLOR, the same words (the error row is red without it)', async () => {
    const coloured = await startInline({});
    await coloured.send(PROMPT.fail);
    expect(coloured.stdout.writes.join('')).toMatch(/\u001b\[31merror: the endpoint/);
    await quit?.();

    const {stdout, send} = await startInline({NO_COLOR: '1'});
    await send(PROMPT.fail);
    expect(stdout.text()).toContain(FAILURE);
    expect(stdout.writes.join('')).not.toMatch(/\u001b\[(3\d|9\d)m/);
  });

  it('keeps the messages for the next run (↑ brings them back); an unreadable history file is moved aside and said', async () => {
    const first = await startInline();
    await first.send('remember me');
    await quit?.();

    const second = await startInline();
    const mark = second.stdout.writes.length;
    await second.press('\u001b[A');
    await vi.waitFor(() => expect(stripAnsi(second.stdout.writes.slice(mark).join(''))).toContain('remember me'), {timeout: 10_000, interval: 10});
    await quit?.();

    writeFileSync(join(home, 'chat-history.json'), '{"entries": [cut');
    const third = await startInline();
    await third.waitFor((text) => text.includes(`chat history ${join(home, 'chat-history.json')} is unreadable`), 'the problem');
    expect(existsSync(join(home, 'chat-history.json.bad'))).toBe(true);
    // Said until the first message; then the foot line is the keys again.
    await third.send('after');
  });
});
