import {randomBytes} from 'node:crypto';
import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {feedsPane} from '../../../source/tui/panes/feeds/FeedsPane.js';
import {openReader} from '../../../source/feeds/client/connect.js';
import {createHttpGateway} from '../../../source/gateway/client/http-gateway.js';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import {startGatewayProcess, startRssOrigin, type GatewayProcess} from '../../helpers/gateway-process.js';
import {startInProcessDaemon, type InProcessDaemon} from './daemonHarness.js';
import {KEYS, renderApp} from './renderApp.js';

// The Feeds pane's gateway view (`g`) on a real `workbench serve gateway` (from dist, its own
// WORKBENCH_HOME: the daemon harness's), found as the pane finds it: through the service registry.

const REFRESH_TOKEN = randomBytes(24).toString('hex');

let daemon: InProcessDaemon | undefined;
let origin: Awaited<ReturnType<typeof startRssOrigin>> | undefined;
let gateway: GatewayProcess | undefined;

afterEach(async () => {
  cleanup();
  await gateway?.stop();
  await daemon?.close();
  await origin?.close();
  vi.unstubAllEnvs();
  gateway = undefined;
  daemon = undefined;
  origin = undefined;
});

async function renderPane() {
  let reader: ReaderService | undefined;
  daemon = await startInProcessDaemon({openReader: async () => (reader ??= await openReader({db: join(daemon!.dir, 'reader.sqlite')}))});
  vi.stubEnv('REFRESH_TOKEN', REFRESH_TOKEN);
  const app = await renderApp(daemon.ports, {columns: 140, rows: 30}, {panes: [feedsPane], title: 'workbench'});
  await app.waitForText('All articles');
  return app;
}

async function startGateway(): Promise<string> {
  origin ??= await startRssOrigin({
    '/news.xml': {title: 'Local news', items: ['Bridge reopens', 'Market day']},
    '/blog.xml': {title: 'A blog', items: ['First post']},
  });
  const project = join(daemon!.dir, 'gateway-project');
  mkdirSync(project, {recursive: true});
  gateway = await startGatewayProcess({
    env: {...process.env, REFRESH_TOKEN},
    home: daemon!.home,
    project,
    feeds: [
      {name: 'news', origin: `${origin.url}/news.xml`},
      {name: 'blog', origin: `${origin.url}/blog.xml`},
    ],
  });
  return gateway.url;
}

describe('Feeds pane: the gateway view', () => {
  it('says the gateway is not running, and how to start it; g and Esc go back to the reader’s feeds', async () => {
    const app = await renderPane();
    expect(app.frame()).toContain('g gateway');
    await app.press('g');
    await app.waitForText('gateway not running — workbench serve gateway');
    expect(app.frame()).toContain('R refresh the feed');
    await app.press('g');
    await app.waitFor((frame) => frame.includes('All articles') && !frame.includes('gateway not running'), 'back to the feeds');
    await app.press('g');
    await app.waitForText('gateway not running');
    await app.press(KEYS.escape);
    await app.waitFor((frame) => frame.includes('All articles') && !frame.includes('gateway not running'), 'back to the feeds');
  });

  it('lists the proxied feeds with stale markers and the channels; R refreshes the selected feed', async () => {
    const app = await renderPane();
    const url = await startGateway();
    const client = createHttpGateway(url, {refreshToken: REFRESH_TOKEN});
    // Both origins polled once, then the blog's fails: stale, its last good copy kept.
    await client.refresh('news');
    await client.refresh('blog');
    origin!.failing.add('/blog.xml');
    await expect(client.refresh('blog')).rejects.toThrow();
    const channel = await client.createChannel({title: 'Deploys \u001b[2Jtoday'});
    await client.postItem(channel.id, channel.write_token, {title: 'v1.2 is out'});

    await app.press('g');
    await app.waitForText(`Gateway · ${url}`);
    await app.waitForText('Deploys today');
    const frame = app.frame();
    expect(frame).toContain('Proxied feeds (2)');
    expect(frame).toContain('Channels (1)');
    expect(app.line(' news ')).toMatch(/news\s+ok\s+2 items · ok \d{4}-\d\d-\d\d \d\d:\d\d/);
    expect(app.line(' blog ')).toMatch(/! blog\s+stale\s+1 item · ok \d{4}/);
    expect(app.line('Deploys today')).toContain(`1 item · expires`);
    expect(app.line('Deploys today')).toContain(channel.feed_url);
    // Text from posters reaches the screen without its escapes.
    expect(app.lastFrame()).not.toContain('\u001b[2J');

    // The first row is selected: ↓ to the blog shows why it is stale.
    const first = frame.indexOf(' news ') < frame.indexOf(' blog ') ? 'news' : 'blog';
    if (first === 'news') await app.press(KEYS.down);
    await app.waitFor(() => /▸! blog/.test(app.line(' blog ')), 'blog selected');
    await app.waitForText(/! blog: .+/);

    // R: the webhook with REFRESH_TOKEN; the origin answers again, the stale mark goes.
    origin!.failing.clear();
    await app.press('R');
    await app.waitForText(/blog: refreshed|blog: not-modified/);
    await app.waitFor(() => /blog\s+ok\s/.test(app.line(' blog ')), 'blog no longer stale');

    // The help overlay names the view's keys.
    await app.press('?');
    await app.waitForText('Keys — Feeds');
    // Below the reader's keys, above the global ones: a page up from the end.
    await app.press(KEYS.end);
    await app.waitForText(/ctrl-c\s+quit/);
    await app.press(KEYS.pageUp);
    await app.waitForText('Gateway view (g)');
    await app.press(KEYS.escape);
    // A key sent right behind Esc would read as Alt+key: the overlay is closed first.
    await app.waitFor((frame) => !frame.includes('Keys — Feeds') && frame.includes('Proxied feeds'), 'help closed');
    await app.press('g');
    await app.waitFor((frame) => frame.includes('All articles') && !frame.includes('Proxied feeds'), 'back to the feeds');
  }, 90_000);

  it('notices a gateway that stops, and one that starts again', async () => {
    const app = await renderPane();
    await startGateway();
    await app.press('g');
    await app.waitForText('Proxied feeds (2)');
    await gateway!.stop();
    await app.waitForText('gateway not running — workbench serve gateway');
    await startGateway();
    await app.waitFor((frame) => frame.includes('Proxied feeds (2)') && !frame.includes('gateway not running'), 'gateway back');
  }, 90_000);
});
