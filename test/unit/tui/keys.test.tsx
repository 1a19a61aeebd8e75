import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {KeySplitter} from '../../../source/tui/key/keySequences.js';
import {startInProcessDaemon, type InProcessDaemon} from './daemonHarness.js';
import {renderApp} from './renderApp.js';

// Keys that arrive in one read are each handled, in order (issue 7 item 1): the app on the real
// daemon, each chunk written to stdin in ONE write, as a fast typist, a paste or a wheel notch does.

describe('KeySplitter', () => {
  const keys = (...events: string[]) => {
    const splitter = new KeySplitter();
    return events
      .flatMap((event) => splitter.push(event))
      .map((press) => press.name ?? (press.paste ? `paste:${press.input}` : `${press.ctrl ? 'ctrl-' : ''}${press.meta ? 'alt-' : ''}${press.input}`));
  };

  it('cuts text runs into characters and names control keys', () => {
    expect(keys('jjj')).toEqual(['j', 'j', 'j']);
    expect(keys('2?')).toEqual(['2', '?']);
    expect(keys('/web\r')).toEqual(['/', 'w', 'e', 'b', 'return']);
    expect(keys('\u0003', '\t', '\u007f')).toEqual(['ctrl-c', 'tab', 'backspace']);
  });

  it('reads CSI and SS3 sequences, modifiers and Alt+key', () => {
    expect(keys('\u001b[A', '\u001bOB', '\u001b[5~', '\u001b[6~', '\u001b[H', '\u001b[4~', '\u001bOF', '\u001b[3~')).toEqual([
      'up',
      'down',
      'pageup',
      'pagedown',
      'home',
      'end',
      'end',
      'delete',
    ]);
    const splitter = new KeySplitter();
    expect(splitter.push('\u001b[Z')[0]).toMatchObject({name: 'tab', shift: true});
    expect(splitter.push('\u001b[1;5A')[0]).toMatchObject({name: 'up', ctrl: true});
    expect(splitter.push('\u001bj')[0]).toMatchObject({input: 'j', meta: true});
    expect(keys('\u001b')).toEqual(['escape']);
    // Unknown sequences (focus reports) are no key at all, not text.
    expect(keys('\u001b[I')).toEqual([]);
  });

  it('turns a bracketed paste into one paste, even split over reads, and keeps the keys around it', () => {
    expect(keys('a\u001b[200~', 'q j', '\u001b[A', 'k\u001b[201~b')).toEqual(['a', 'paste:q j\u001b[Ak', 'b']);
  });

  it('turns a wheel notch into three arrows and ignores clicks', () => {
    expect(keys('\u001b[<65;10;5M')).toEqual(['down', 'down', 'down']);
    expect(keys('\u001b[<64;10;5M')).toEqual(['up', 'up', 'up']);
    expect(keys('\u001b[<0;10;5M', '\u001b[<0;10;5m')).toEqual([]);
  });
});

describe('keys in one read, on the real daemon', () => {
  let daemon: InProcessDaemon;
  beforeEach(async () => {
    daemon = await startInProcessDaemon();
    for (const id of ['p1', 'p2', 'p3', 'p4', 'p5']) await daemon.run(`node -e "console.log('this is ${id}'); setInterval(() => {}, 1000)"`, id);
  });
  afterEach(async () => {
    cleanup();
    await daemon.close();
  });

  const selected = (frame: string) => /▸ (p\d)/.exec(frame)?.[1];

  async function render() {
    const app = await renderApp(daemon.ports);
    await app.waitFor((frame) => /p5\s+running/.test(frame) && selected(frame) === 'p1', 'five processes, p1 selected');
    return app;
  }

  it('jjj moves three rows, then kkk three back', async () => {
    const app = await render();
    app.stdin.write('jjj');
    await app.waitFor((frame) => selected(frame) === 'p4', 'p4 selected');
    await app.waitForText('this is p4');
    app.stdin.write('kk');
    await app.waitFor((frame) => selected(frame) === 'p2', 'p2 selected');
  });

  it('three Down arrows in one write move three rows; a wheel notch moves three more', async () => {
    const app = await render();
    app.stdin.write('\u001b[B\u001b[B\u001b[B');
    await app.waitFor((frame) => selected(frame) === 'p4', 'p4 selected after three arrows');
    app.stdin.write('\u001b[<64;10;5M');
    await app.waitFor((frame) => selected(frame) === 'p1', 'p1 selected after a wheel notch up');
  });

  it('2? focuses the second pane and opens its help', async () => {
    const app = await render();
    app.stdin.write('2?');
    await app.waitForText('Keys — Incidents');
  });

  it('/p3 and Enter in one read open the filter, type into it and apply it: the keys after / see the input', async () => {
    const app = await render();
    app.stdin.write('/p3\r');
    await app.waitForText('filter: p3');
    expect(app.frame()).not.toMatch(/p1\s+running/);
    expect(app.onQuit).not.toHaveBeenCalled();
  });

  it('a bracketed paste types into the filter as text; pasted keys are never commands', async () => {
    const app = await render();
    // A paste outside an input does nothing: q in it does not quit, j does not move.
    app.stdin.write('\u001b[200~qj\u001b[201~');
    app.stdin.write('/');
    await app.waitForText('enter keep · esc clear');
    app.stdin.write('\u001b[200~p5\u001b[201~\r');
    await app.waitForText('filter: p5');
    expect(app.onQuit).not.toHaveBeenCalled();
  });
});
