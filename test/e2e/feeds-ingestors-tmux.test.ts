import {execFileSync} from 'node:child_process';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {makePosts, startSocialNetwork, type SocialNetwork} from '../../fixtures/social/stand-in.js';
import {cliPath, eventually, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import {requirePackage} from '../helpers/system-package.js';
import {paneFocused} from '../helpers/tmux.js';

// The Feeds pane's ingestors in the real program (dist/) in a real terminal (tmux, 160×45): two
// ingestors added with `workbench ingestors add` (one with a good token, one with a wrong one),
// then the TUI, whose daemon runs the reader's server and its scheduler over the same store.
// Keys go through tmux as a person types them; Mastodon's stand-in answers on 127.0.0.1.

const hasTmux = !requirePackage('tmux', {for: 'the Feeds pane ingestors end-to-end test'});

let sandbox: Sandbox;
let network: SocialNetwork;
let socket: string;
const session = 'wbingest';
const TOKEN = 'tok-tmux-secret-4242';
const WRONG = 'wrong-tmux-token-17';
const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], {encoding: 'utf8'});
const screen = () => tmux('capture-pane', '-p', '-t', session);
const keys = (...names: string[]) => tmux('send-keys', '-t', session, ...names);
const shows = (pattern: string | RegExp, timeoutMs = 30_000) =>
  eventually(() => (typeof pattern === 'string' ? screen().includes(pattern) : pattern.test(screen())) || undefined, timeoutMs, 200).catch(() => {
    throw new Error(`${String(pattern)} not on the screen:\n${screen()}`);
  });

describe.skipIf(!hasTmux)('the Feeds pane’s ingestors in a real terminal (tmux)', () => {
  beforeAll(async () => {
    sandbox = makeSandbox('wb-ingesttmux-');
    socket = `${sandbox.dir}/tmux.sock`;
    // One status carries a terminal title escape: it must reach the screen as text, never as a command.
    const posts = makePosts(12, {authors: ['alice', 'bob']}).map((post) => ({...post, tags: ['rust'], text: post.id === 3 ? `\u001b]0;pwned\u0007${post.text}` : post.text}));
    network = await startSocialNetwork({network: 'mastodon', posts, token: TOKEN});
    const add = async (list: string, token: string, extra: string[]) => {
      const result = await runCli(['ingestors', 'add', 'mastodon', '--set', `instance=${network.url}`, '--set', `list=${list}`, '--secret-stdin', 'accessToken', ...extra], {
        env: sandbox.env,
        input: `${token}\n`,
        timeoutMs: 30_000,
      });
      expect(result.code, result.stderr).toBe(0);
    };
    await add('1', TOKEN, ['--digest', 'hourly', '--threshold', '0.5']);
    await add('2', WRONG, []);
    const env = Object.entries({WORKBENCH_HOME: sandbox.home, XDG_CONFIG_HOME: sandbox.config, HOME: sandbox.dir, TERM: 'xterm-256color'})
      .map(([key, value]) => `${key}=${value}`)
      .join(' ');
    tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '160',
      '-y',
      '45',
      '-c',
      sandbox.dir,
      `env -u CI -u CONTINUOUS_INTEGRATION ${env} ${process.execPath} ${cliPath}; echo EXITED-$?; sleep 60`,
    );
  });

  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    await network?.close();
    await sandbox?.cleanup();
  });

  it('lists the ingestors with status, why and pending digests; t shows kept and dropped statuses with their reasons; esc and i come back', async () => {
    await shows('3 Feeds');
    keys('3');
    // The Feeds pane's text shows while another pane has the focus: i goes once it has it.
    await paneFocused(screen, 3, 30_000);
    await shows('All articles');
    keys('i');
    await shows('Ingestors (2)');
    // The reader's scheduler runs both at once: one keeps statuses for its hourly digest, the other is refused.
    await shows(/▸ +1 mastodon +ok +hourly · \d+ pending/, 60_000);
    await shows(/! +2 mastodon +error/, 60_000);
    keys('j');
    await shows(/refused the request \(401\): check the config's accessToken/);
    expect(screen()).not.toContain(WRONG);

    keys('k');
    keys('t');
    await shows('kept:');
    const frame = screen();
    expect(frame).toMatch(/fetched 12 · kept \d+ · dropped \d+ · model off/);
    expect(frame).toMatch(/0\.\d\d {2}@(alice|bob) {2}Post \d+/);
    expect(frame).toMatch(/[+−]\d\.\d\d engagement [\d.]+× this author's usual/);
    expect(frame).not.toContain(TOKEN);
    // The escape reached the screen stripped: tmux took no title from it.
    expect(tmux('display-message', '-p', '-t', session, '#{pane_title}')).not.toContain('pwned');
    // The test asked the network with the stored token.
    expect(network.requests.at(-1)!.authorization).toBe(`Bearer ${TOKEN}`);

    keys('Escape');
    await shows('Ingestors (2)');
    await eventually(() => !screen().includes('kept:') || undefined, 5000).catch(() => {
      throw new Error(`the test view is still open:\n${screen()}`);
    });
    keys('i');
    await shows('All articles');
    keys('q');
    await shows('EXITED-0', 15_000);
  }, 120_000);
});
