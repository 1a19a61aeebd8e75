import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startModelEndpoint, type ModelEndpoint} from '../../fixtures/model-endpoint/stand-in.js';
import {cliPath, makeSandbox, type Sandbox} from '../helpers/cli.js';
import {requirePackage} from '../helpers/system-package.js';
import {tmuxDriver} from '../helpers/tmux.js';

// The Chat pane in the real program (dist/) in a real terminal (tmux, 160×45): the project's
// `.workbench.kdl` points the agent at a model stand-in in this process (the pane has no flags),
// MESSAGES_API_KEY is in the environment. Keys go through tmux as a person types them.

const hasTmux = !requirePackage('tmux', {for: 'the Chat pane end-to-end test'});
const KEY = 'sk-tmux-chat-0123456789abcdef';

let sandbox: Sandbox;
let model: ModelEndpoint;
let project: string;
let socket: string;
const session = 'wbchat';
let driver: ReturnType<typeof tmuxDriver>;
const tmux = (...args: string[]) => driver.tmux(...args);
const keys = (...names: string[]) => driver.keys(...names);
const type = (text: string) => driver.type(text);
const shows = (pattern: string | RegExp, timeoutMs?: number) => driver.shows(pattern, timeoutMs);

describe.skipIf(!hasTmux)('the Chat pane in a real terminal (tmux)', () => {
  beforeAll(async () => {
    sandbox = makeSandbox('wb-chattmux-');
    socket = `${sandbox.dir}/tmux.sock`;
    driver = tmuxDriver(socket, session);
    model = await startModelEndpoint({key: KEY});
    model.respond = ({body}) => {
      const messages = body.messages as Array<{role: string; content: Array<{type: string; text?: string}>}>;
      const results = messages.flatMap((message) => message.content).filter((part) => part.type === 'tool_result').length;
      const prompt = JSON.stringify(messages.at(-1));
      if (prompt.includes('say hello')) return {text: ['Hello ', 'from the ', 'stand-in.'], pieceDelayMs: 30, usage: {input: 11, output: 7}};
      if (results === 0) return {toolCalls: [{name: 'edit_file', input: {path: 'src/a.ts', old_string: 'cosnt', new_string: 'const'}}], usage: {input: 20, output: 3}};
      return {text: 'Fixed the typo.', usage: {input: 30, output: 4}};
    };
    project = join(sandbox.dir, 'project');
    mkdirSync(join(project, 'src'), {recursive: true});
    writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'chat-demo', private: true, scripts: {}}));
    writeFileSync(join(project, 'src/a.ts'), 'cosnt a = 1;\n');
    writeFileSync(join(project, '.workbench.kdl'), `agent {\n  base-url "${model.url}"\n  model "stand-in"\n}\n`);
    const env = Object.entries({WORKBENCH_HOME: sandbox.home, XDG_CONFIG_HOME: sandbox.config, HOME: sandbox.dir, TERM: 'xterm-256color', MESSAGES_API_KEY: KEY})
      .map(([key, value]) => `${key}=${value}`)
      .join(' ');
    const unset = ['CI', 'CONTINUOUS_INTEGRATION', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'MESSAGES_AUTH_TOKEN'].map((name) => `-u ${name}`).join(' ');
    tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '45', '-c', project, `env ${unset} ${env} ${process.execPath} ${cliPath}; echo EXITED-$?; sleep 60`);
  });

  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    await model?.close();
    await sandbox?.cleanup();
  });

  it('talks to the model: the auth row, a streamed answer, an edit asked and allowed, tokens in the status bar', async () => {
    await shows('6 Chat');
    // Esc goes once the Chat pane has the keys: sent right behind 6 it can reach the pane before.
    await driver.focus(6);
    await shows('esc conversation');
    await shows(`auth: MESSAGES_API_KEY -> ${model.url}/v1/messages`);
    // The whole screen for the conversation: esc leaves the box, + zooms, i types again.
    keys('Escape');
    await shows('i type');
    type('+');
    await shows('+ unzoom');
    // `i` and the message in one go, as a quick typist sends them: the message lands whole in the box.
    type('isay hello');
    keys('Enter');
    await shows('Hello from the stand-in.');
    await shows('tokens 11 in · 7 out');

    // The turn is over and the box takes text again.
    await driver.statusBarShows('enter send');
    type('fix the typo in src/a.ts');
    keys('Enter');
    await shows('[y] allow');
    // The diff the user is agreeing to, before anything is written.
    await shows('+const a = 1;');
    expect(readFileSync(join(project, 'src/a.ts'), 'utf8')).toBe('cosnt a = 1;\n');
    type('y');
    await shows('Fixed the typo.');
    await shows('✓ edit src/a.ts (+1 -1)');
    await shows('tokens 61 in · 14 out');
    expect(readFileSync(join(project, 'src/a.ts'), 'utf8')).toBe('const a = 1;\n');
    expect(model.requests.every((request) => request.headers.authorization === `Bearer ${KEY}` || request.headers['x-api-key'] === KEY)).toBe(true);
  });
});
