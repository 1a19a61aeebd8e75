import {afterEach, describe, expect, it, vi} from 'vitest';
import {withoutColours} from '../../../../source/tui/terminal/noColor.js';
import {cleanup} from 'ink-testing-library';
import {chatPane} from '../../../../source/tui/panes/chat.js';
import {createChatPort} from '../../../../source/tui/ports/chat.js';
import {ANSWER, EDIT_DIFF, ENDPOINT, FAILURE, NO_CREDENTIAL, PROMPT, scriptedChat, SHELL_OUTPUT, type ScriptedChat} from '../../../helpers/chat-session.js';
import {startInProcessDaemon, type InProcessDaemon} from '../daemonHarness.js';
import {KEYS, renderApp, type Size} from '../renderApp.js';

// Colours on, before ink loads: the NO_COLOR test sees what the colourless stream leaves.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

// The Chat pane at a real terminal size, its sessions from test/helpers/chat-session.ts (the one
// place sessions come from), the daemon harness for the rest of the TUI. What is asserted is what
// a session's events and rows say, as any session (the agent loop, an ACP agent) produces them.

let daemon: InProcessDaemon | undefined;

afterEach(async () => {
  cleanup();
  await daemon?.ports.close();
  await daemon?.close();
  vi.unstubAllEnvs();
  daemon = undefined;
});

async function renderChat(size: Size = {columns: 120, rows: 40}, options: {allPanes?: boolean; noCredential?: boolean} = {}) {
  const chat: ScriptedChat = await scriptedChat({noCredential: options.noCredential});
  daemon = await startInProcessDaemon({chatOpeners: chat.openers});
  const app = await renderApp(daemon.ports, size, {panes: options.allPanes ? undefined : [chatPane], title: 'workbench'});
  if (options.allPanes || options.noCredential) return {app, chat, send: async () => {}, toConversation: async () => {}};
  await app.waitForText(`auth: MESSAGES_API_KEY -> ${ENDPOINT}`);
  /** Types a message and sends it. */
  // The text and Enter in one read, as a paste or fast typing gives them.
  const send = (text: string) => app.press(text + KEYS.enter);
  // A lone ESC is known to be Escape only once the next key is not right behind it: wait for the
  // conversation's key line before the next key (an `m` right after would read as Alt-M).
  // Esc while a turn runs cancels it: wait until none runs — the status bar offers `enter send`
  // again (the pane's own key line names it at all times, so it cannot tell).
  const toConversation = async () => {
    await app.waitForStatusBar('enter send');
    await app.press(KEYS.escape);
    await app.waitForText('i type · ↑↓ select');
  };
  return {app, chat, send, toConversation};
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('the Chat pane', () => {
  it('shows the auth row, streams the live turn before its answer row, then the answer and the tokens in the status bar', async () => {
    const {app, chat, send} = await renderChat();
    const release = chat.holdAnswer();
    await send(PROMPT.hello);
    await app.waitForText(`> ${PROMPT.hello}`);
    // The streamed text, while the answer row has not come: the turn is still running.
    await app.waitForText('Hello there, friend.');
    expect(app.frame()).toContain('answering…');
    expect(app.frame()).not.toContain('tokens: 120 in, 30 out');
    release();
    await app.waitForText('tokens: 120 in, 30 out');
    await app.waitFor((frame) => !frame.includes('answering…'), 'turn finished');
    // The answer replaces the streamed text: said once.
    expect(count(app.frame(), ANSWER.hello)).toBe(1);
    await app.waitForText('tokens 120 in · 30 out');
    // The next turn adds to the status bar's sum.
    await send(PROMPT.shell);
    await app.waitForText('[y] allow [a] always [n] deny');
    await app.press('y');
    await app.waitForText('tokens 320 in · 50 out');
  });

  it('collapses tool rows to one line with ✓/✗ and opens them with enter and →', async () => {
    const {app, send, toConversation} = await renderChat();
    await send(PROMPT.shell);
    await app.waitForText('[y] allow');
    await app.press('y');
    await app.waitForText(ANSWER.shell);
    const failed = app.line('shell npm test');
    expect(failed).toMatch(/✗ shell npm test → exit 1/);
    expect(app.frame()).not.toContain('expected 1 to be 2');
    // To the conversation, select the tool row, open it: the output shows.
    await toConversation();
    await app.press(KEYS.up, KEYS.enter);
    await app.waitForText(/│ +expected 1 to be 2/);
    for (const line of SHELL_OUTPUT.split('\n')) expect(app.frame()).toContain(line.trim());
    await app.press('\u001b[D');
    await app.waitFor((frame) => !frame.includes('expected 1 to be 2'), 'closed again');
    await app.press('\u001b[C');
    await app.waitForText(/│ +expected 1 to be 2/);
  });

  it('asks before an edit with the reason and the diff: y lets the session edit, a second run answered n is refused', async () => {
    const {app, chat, send} = await renderChat();
    await send(PROMPT.edit);
    await app.waitForText('? edit src/a.ts — asks: no rule matches; edit asks by default');
    for (const line of EDIT_DIFF.split('\n').slice(3)) expect(app.frame()).toContain(line);
    expect(app.frame()).toContain('✓ read src/a.ts (1 line)');
    await app.press('y');
    await app.waitForText(ANSWER.edit);
    expect(app.frame()).toContain('✓ edit src/a.ts (+1 -1)');
    expect(chat.asked.map((entry) => entry.answer)).toEqual(['allow']);

    await send(PROMPT.edit);
    await app.waitForText('[y] allow');
    await app.press('n');
    await app.waitForText(ANSWER.editRefused);
    expect(app.frame()).toMatch(/✗ edit src\/a\.ts → refused: Not run: denied by you when asked/);
    expect(chat.asked.map((entry) => entry.answer)).toEqual(['allow', 'deny']);
  });

  it('keeps the messages sent: ↑ brings the last one back into the box, as a shell does; q and digits type', async () => {
    const {app, chat, send} = await renderChat();
    await send('first 1 q?');
    await app.waitForText('You said: first 1 q?');
    await send('second');
    await app.waitForText('You said: second');
    await app.press(KEYS.up, KEYS.up);
    // The box is the line under the rule: the older message is in it.
    await app.waitFor((frame) => /─{20}│\n│ first 1 q\? +│/.test(frame), 'the older message in the box');
    await app.press(KEYS.enter);
    await app.waitFor(() => chat.prompts.length === 3, 'sent again');
    expect(chat.prompts).toEqual(['first 1 q?', 'second', 'first 1 q?']);
    expect(app.onQuit).not.toHaveBeenCalled();
  });

  it('cancels the running turn with esc and with ctrl-c, without quitting', async () => {
    const {app, send} = await renderChat();
    await send(PROMPT.slow);
    await app.waitForText('Thinking');
    // A message typed while the turn runs waits in the box.
    await app.press('next one', KEYS.enter);
    await app.waitForText('a turn is running: esc cancels it');
    expect(app.frame()).toMatch(/│ next one +│/);
    await app.press(KEYS.escape);
    await app.waitForText('error: cancelled');
    await app.press(...Array.from({length: 8}, () => '\u007f'));
    await app.waitFor((frame) => !/│ next one +│/.test(frame), 'the box emptied');
    await app.waitFor((frame) => !frame.includes('answering…'), 'turn over');
    await send(PROMPT.slow);
    await app.waitFor((frame) => count(frame, 'Thinking') === 2, 'second turn streaming');
    await app.press(KEYS.ctrlC);
    await app.waitFor((frame) => count(frame, 'error: cancelled') === 2, 'second cancel');
    expect(app.onQuit).not.toHaveBeenCalled();
  });

  it('shows an error row of the session', async () => {
    const {app, send} = await renderChat();
    await send(PROMPT.fail);
    await app.waitForText(FAILURE);
  });

  it('copies the last answer with y as an OSC 52 sequence carrying its base64, and says so', async () => {
    const {app, send, toConversation} = await renderChat();
    await send(PROMPT.hello);
    await app.waitForText('tokens: 120 in, 30 out');
    await toConversation();
    await app.press('y');
    await app.waitForText('copied the last answer');
    const sequence = `\u001b]52;c;${Buffer.from(ANSWER.hello).toString('base64')}\u0007`;
    expect(app.frames.some((frame) => frame.includes(sequence))).toBe(true);
  });

  it('switches to an ACP agent: a asks for the command, remembers it; m goes back to the model', async () => {
    const {app, chat, send, toConversation} = await renderChat();
    await toConversation();
    await app.press('a');
    await app.waitForText('ACP agent command');
    await app.press('node stub-agent.mjs', KEYS.enter);
    await app.waitForText('acp: node stub-agent.mjs (Stub Agent');
    expect(chat.acpCommands).toEqual(['node stub-agent.mjs']);
    // Kept for the next run of the TUI (WORKBENCH_HOME/chat.json).
    expect(createChatPort(chat.openers).lastAcpCommand()).toBe('node stub-agent.mjs');
    await send('hi agent');
    await app.waitForText('Hello from the stub agent.');
    await toConversation();
    await app.press('m');
    await app.waitForText(`auth: MESSAGES_API_KEY -> ${ENDPOINT}`);
    await app.press('a');
    await app.waitForText('ACP agent command');
    // The last command is offered again.
    await app.waitForText('node stub-agent.mjs');
  });

  it('an ACP agent that fails session/new: its stderr lines, then the error with the data of its answer', async () => {
    const {app, toConversation} = await renderChat();
    await toConversation();
    await app.press('a');
    await app.waitForText('ACP agent command');
    await app.press('node stub-agent.mjs --fail-session', KEYS.enter);
    // The error wraps at the pane's width: read it as one text.
    const text = () => app.frame().replace(/[│\s]+/g, ' ');
    await app.waitFor(() => text().includes('Claude Code process exited with code 1 (session/new)'), 'the error with its data');
    expect(text()).toContain(
      `agent: Error: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons error: ACP agent 'node stub-agent.mjs --fail-session' could not start a session: Internal error: Claude Code process exited with code 1 (session/new)`,
    );
  });

  it('is usable on a 60×15 terminal: send, answer, permission prompt', async () => {
    const {app, send} = await renderChat({columns: 60, rows: 15});
    await send(PROMPT.shell);
    await app.waitForText('[y] allow');
    await app.press('y');
    await app.waitForText(ANSWER.shell);
    expect(
      app
        .frame()
        .split('\n')
        .every((line) => line.length <= 60),
    ).toBe(true);
  });

  it('scrolls the whole conversation with pgup/pgdn and g/G', async () => {
    const {app, chat, send, toConversation} = await renderChat({columns: 100, rows: 20});
    for (let index = 1; index <= 8; index++) {
      await send(`message number ${index}`);
      await app.waitForText(`You said: message number ${index}`);
    }
    expect(chat.prompts).toHaveLength(8);
    expect(app.frame()).not.toContain('You said: message number 1\n');
    await toConversation();
    await app.press('g');
    await app.waitForText('You said: message number 1');
    expect(app.frame()).not.toContain('You said: message number 8');
    await app.press('G');
    await app.waitForText('You said: message number 8');
    await app.press(KEYS.pageUp, KEYS.pageUp, KEYS.pageUp);
    await app.waitForText('You said: message number 1');
    await app.press(KEYS.pageDown, KEYS.pageDown, KEYS.pageDown);
    await app.waitForText('You said: message number 8');
  });

  it('says everything without colour (NO_COLOR): ✓/✗, the prompt marker, the selected row in inverse video', async () => {
    const {app, send, toConversation} = await renderChat();
    await send(PROMPT.edit);
    await app.waitForText('[y] allow');
    await app.press('y');
    await app.waitForText(ANSWER.edit);
    await send(PROMPT.shell);
    await app.waitForText('[y] allow');
    await app.press('y');
    await app.waitForText(ANSWER.shell);
    await toConversation();
    await app.press(KEYS.up);
    await app.waitFor(() => (app.lastFrame() ?? '').includes('\u001b[7m'), 'a selected row');
    // What runTui writes under NO_COLOR: the frame through the colourless stream.
    const colourless = withoutColours(app.lastFrame() ?? '');
    expect(colourless).not.toMatch(/\u001b\[(3\d|9\d)m/);
    expect(colourless).toMatch(/\u001b\[7m[^\n]*✗ shell npm test → exit 1/);
    expect(colourless).toContain('✓ edit src/a.ts (+1 -1)');
    expect(colourless).toContain(`> ${PROMPT.shell}`);
  });

  it('is pane 6 of the TUI: opens its session when first focused; in the box digits and q type, after esc they switch panes', async () => {
    const {app, chat} = await renderChat({columns: 120, rows: 40}, {allPanes: true});
    await app.waitForText('6 Chat');
    await app.waitForText('connects when focused');
    expect(chat.prompts).toEqual([]);
    await app.press('6');
    await app.waitForText(`auth: MESSAGES_API_KEY -> ${ENDPOINT}`);
    await app.press('1 q 5', KEYS.enter);
    await app.waitForText('You said: 1 q 5');
    expect(app.onQuit).not.toHaveBeenCalled();
    await app.press(KEYS.escape);
    await app.waitForText('i type · ↑↓ select');
    await app.press('1');
    await app.waitFor((frame) => !frame.includes('i type · ↑↓ select'), 'the Processes pane focused');
    // Stacked a few rows high, the Chat pane still says who it talks to and what it cost.
    await app.waitForText('1 message · tokens 10 in · 5 out');
  });

  it('says why the session could not open, and tries again with the next message, the error under it', async () => {
    const {app, chat} = await renderChat({columns: 120, rows: 40}, {noCredential: true});
    await app.waitForText(`error: ${NO_CREDENTIAL}`);
    await app.waitForText('not connected: enter sends and tries again');
    await app.press('hello', KEYS.enter);
    await app.waitFor((frame) => /> hello\s*│\n│error: No credential for the model endpoint/.test(frame), 'the retry failing under the message');
    // The whole message: each step tried, in order, and how to fix it.
    expect(app.frame()).toContain('1. --api-key: not given');
    expect(app.frame()).toContain('workbench connect');
    expect(chat.prompts).toEqual([]);
  });
});
