import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {makePosts, startSocialNetwork, type SocialNetwork} from '../../../fixtures/social/stand-in.js';
import {feedsPane} from '../../../source/tui/panes/feeds/FeedsPane.js';
import {openReader} from '../../../source/feeds/client/connect.js';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import {startInProcessDaemon, type InProcessDaemon} from './daemonHarness.js';
import {KEYS, renderApp} from './renderApp.js';

// The Feeds pane's ingestors (`i`) on the real reader service, in this process on a SQLite store
// in a private home, and Mastodon's stand-in on 127.0.0.1.

let daemon: InProcessDaemon | undefined;
let network: SocialNetwork | undefined;
let reader: ReaderService | undefined;

afterEach(async () => {
  cleanup();
  await reader?.close();
  await daemon?.close();
  await network?.close();
  daemon = undefined;
  network = undefined;
  reader = undefined;
});

describe('Feeds pane: ingestors', () => {
  it('lists ingestors with their status and why; t shows kept and dropped statuses with the reasons behind their scores', async () => {
    const posts = makePosts(12, {authors: ['alice', 'bob']}).map((post) => ({...post, tags: ['rust'], text: post.id === 3 ? `\u001b]0;pwned\u0007${post.text}` : post.text}));
    network = await startSocialNetwork({network: 'mastodon', posts, token: 'tok-pane-1234'});
    daemon = await startInProcessDaemon({openReader: async () => (reader ??= await openReader({db: join(daemon!.dir, 'reader.sqlite')}))});
    const service = await daemon.ports.feeds.reader();
    const ok = await service.createIngestor({kind: 'kind_1', config: {instance: network.url, list: '1', accessToken: 'tok-pane-1234'}, digestMode: 'hourly', filterThreshold: 0.5});
    await service.createIngestor({kind: 'kind_1', config: {instance: network.url, list: '2', accessToken: 'wrong-token-99'}});
    // One cycle each: the first keeps some statuses for its digest, the second is refused.
    await service.refresh(ok.feedId);
    const failing = (await service.listIngestors())[1]!;
    await service.refresh(failing.feedId).catch(() => undefined);

    const app = await renderApp(daemon.ports, {columns: 140, rows: 40}, {panes: [feedsPane], title: 'workbench'});
    await app.waitForText('All articles');
    await app.press('i');
    await app.waitFor((frame) => /▸ +1 mastodon +ok +hourly · \d+ pending/.test(frame), 'the first ingestor');
    expect(app.frame()).toMatch(/! +2 mastodon +error/);
    await app.press('j');
    await app.waitForText(/refused the request \(401\): check the config's accessToken/);
    expect(app.frame()).not.toContain('wrong-token-99');

    await app.press('k');
    await app.press('t');
    await app.waitForText('kept:');
    const frame = app.frame();
    expect(frame).toMatch(/fetched 12 · kept \d+ · dropped \d+ · model off/);
    expect(frame).toMatch(/0\.\d\d {2}@(alice|bob) {2}Post \d+/);
    expect(frame).toMatch(/[+−]\d\.\d\d engagement [\d.]+× this author's usual/);
    expect(app.lastFrame()).not.toContain('\u001b]0;');
    expect(frame).not.toContain('pwned\u0007');
    await app.press(KEYS.escape);
    await app.waitForText('Ingestors (2)');
    // A move and a test in one read: the test is of the row the move reached.
    await app.press('jt');
    await app.waitForText('Test of ingestor 2');
    await app.press(KEYS.escape);
    await app.waitForText('Ingestors (2)');
    await app.press('i');
    await app.waitForText('All articles');
  });
});
