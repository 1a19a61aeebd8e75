// Origin items' enclosures and categories through the gateway (issue 28): a real gateway on
// 127.0.0.1 polls real origins, and what it republishes as RSS and Atom is read back with our own
// parser — Miniflux's large_rss.xml (25 categories), a podcast (enclosure url/type/length round
// trip), hostile items (a 2 TB length, javascript: and relative URLs, 10,000 enclosures, markup in
// category names), the ETag following an enclosure's change, and a store from before the change.
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startGatewayServer, type GatewayServer} from '../../../servers/gateway/index.js';
import {MAX_ENCLOSURES, parseFeed} from '../../../source/feeds/parser/index.js';
import type {ParsedFeed} from '../../../source/feeds/types.js';
import {openGatewayStore} from '../../../source/gateway/store/index.js';
import type {GatewayConfig} from '../../../source/gateway/index.js';
import {wellFormedXml} from '../../helpers/well-formed-xml.js';
import {startFeedOrigin, type FeedOrigin} from './origin-server.js';

const SECRET = 'refresh-secret-for-media-tests-0123';
const LARGE_RSS = readFileSync(new URL('../../../fixtures/feeds/miniflux/internal/reader/parser/testdata/large_rss.xml', import.meta.url), 'utf8');
const TWO_TB = 2_147_483_648_000;

function podcast(episodeBytes: number): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:media="http://search.yahoo.com/mrss/">
<channel><title>A podcast</title><link>https://podcast.example/</link><description>Episodes</description>
<item><guid>ep-1</guid><title>Episode one</title><link>https://podcast.example/ep/1</link><pubDate>Mon, 01 Jan 2024 00:00:00 GMT</pubDate>
<enclosure url="https://cdn.podcast.example/ep1.mp3?a=1&amp;b=2" length="${episodeBytes}" type="audio/mpeg"/>
<media:content url="https://cdn.podcast.example/ep1.mp4" type="video/mp4" fileSize="${TWO_TB}" duration="3723"/>
<itunes:duration>1:02:03</itunes:duration>
<category>Talk</category><category>Tech &amp; Science</category>
</item>
</channel></rss>`;
}

// The parser reads category text as HTML (markup would be dropped): these are what it keeps of each.
const HOSTILE_CATEGORIES = ['a < b', 'fish & chips', 'ends ]]> early', 'quote " and apostrophe \''];

// Past the 4,000 characters the reader store keeps of a URL.
const LONG_URL = `https://cdn.hostile.example/${'x'.repeat(4_000)}.mp3`;

function hostile(): string {
  const many = Array.from({length: 10_000}, (_, i) => `<enclosure url="https://cdn.hostile.example/${i}.mp3" length="1" type="audio/mpeg"/>`).join('');
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>Hostile</title><link>https://hostile.example/blog/</link><description>Bad input</description>
<item><guid>bad-urls</guid><title>Bad URLs</title><link>https://hostile.example/blog/post/</link><pubDate>Tue, 02 Jan 2024 00:00:00 GMT</pubDate>
<enclosure url="javascript:alert(1)" length="10" type="audio/mpeg"/>
<enclosure url="media/ep.mp3" length="${TWO_TB}" type="audio/mpeg"/>
<enclosure url="${LONG_URL}" length="1" type="audio/mpeg"/>
${HOSTILE_CATEGORIES.map((name) => `<category>${escape(name)}</category>`).join('')}
</item>
<item><guid>many</guid><title>Ten thousand enclosures</title><pubDate>Mon, 01 Jan 2024 00:00:00 GMT</pubDate>${many}</item>
</channel></rss>`;
}

let dir: string;
let server: GatewayServer;
let large: FeedOrigin;
let cast: FeedOrigin;
let bad: FeedOrigin;
let config: GatewayConfig;
const previousHome = process.env.WORKBENCH_HOME;

function start(): Promise<GatewayServer> {
  return startGatewayServer({port: 0, db: join(dir, 'gateway.sqlite'), config, refreshToken: SECRET, background: false, logFile: join(dir, 'gateway.log')});
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-gateway-media-'));
  process.env.WORKBENCH_HOME = join(dir, 'home');
  large = await startFeedOrigin({kind: 'feed', body: LARGE_RSS});
  cast = await startFeedOrigin({kind: 'feed', body: podcast(12_216_320), etag: '"ep-v1"'});
  bad = await startFeedOrigin({kind: 'feed', body: hostile()});
  config = {
    feeds: [
      {name: 'large', origin: large.url, pollIntervalMs: 600_000},
      {name: 'podcast', origin: cast.url, pollIntervalMs: 600_000},
      {name: 'hostile', origin: bad.url, pollIntervalMs: 600_000},
    ],
  };
  server = await start();
});
afterAll(async () => {
  await server?.close();
  for (const origin of [large, cast, bad]) await origin?.close();
  if (previousHome === undefined) delete process.env.WORKBENCH_HOME;
  else process.env.WORKBENCH_HOME = previousHome;
  rmSync(dir, {recursive: true, force: true});
});

async function refresh(name: string): Promise<unknown> {
  const answer = await fetch(`${server.url}/api/feeds/${name}/refresh`, {method: 'POST', headers: {authorization: `Bearer ${SECRET}`}});
  expect(answer.status).toBe(200);
  return answer.json();
}

/** The feed as a reader gets it: well-formed XML, parsed by our own parser. */
async function republished(
  name: string,
  format: 'rss' | 'atom',
  headers: Record<string, string> = {},
): Promise<{text: string; feed: ParsedFeed; etag: string | null; status: number}> {
  const answer = await fetch(`${server.url}/${name}?format=${format}`, {headers});
  const text = await answer.text();
  if (answer.status !== 200) return {text, feed: {format, title: '', items: []}, etag: answer.headers.get('etag'), status: answer.status};
  expect(wellFormedXml(text)).toBe(true);
  return {text, feed: parseFeed(text, answer.headers.get('content-type') ?? undefined), etag: answer.headers.get('etag'), status: answer.status};
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

describe('categories', () => {
  it("large_rss.xml's 25 categories come out on RSS and Atom, each on its item", async () => {
    const origin = parseFeed(LARGE_RSS, 'application/rss+xml');
    const categories = (feed: ParsedFeed) => new Map(feed.items.map((item) => [item.link, item.categories]));
    expect(origin.items.flatMap((item) => item.categories)).toHaveLength(25);
    await refresh('large');
    const rss = await republished('large', 'rss');
    const atom = await republished('large', 'atom');
    expect(count(rss.text, /<category>/g)).toBe(25);
    expect(count(atom.text, /<category term="/g)).toBe(25);
    expect(categories(rss.feed)).toEqual(categories(origin));
    expect(categories(atom.feed)).toEqual(categories(origin));
  });
});

describe('a podcast', () => {
  it('RSS: the first enclosure as <enclosure>, every one as media:content; url, type, length and duration read back', async () => {
    expect(await refresh('podcast')).toEqual({id: 'podcast', status: 'ok'});
    const {text, feed} = await republished('podcast', 'rss');
    expect(count(text, /<enclosure /g)).toBe(1);
    expect(text).toContain('<enclosure url="https://cdn.podcast.example/ep1.mp3?a=1&amp;b=2" length="12216320" type="audio/mpeg"/>');
    expect(text).toContain('xmlns:media="http://search.yahoo.com/mrss/"');
    expect(count(text, /<media:content /g)).toBe(2);
    expect(feed.items[0]!.enclosures).toEqual([
      {url: 'https://cdn.podcast.example/ep1.mp3?a=1&b=2', type: 'audio/mpeg', length: 12_216_320, durationSeconds: 3723},
      {url: 'https://cdn.podcast.example/ep1.mp4', type: 'video/mp4', length: TWO_TB, durationSeconds: 3723},
    ]);
    expect(feed.items[0]!.categories).toEqual(['Talk', 'Tech & Science']);
  });

  it('Atom: a link rel="enclosure" per enclosure; url, type and length read back', async () => {
    const {text, feed} = await republished('podcast', 'atom');
    expect(count(text, /rel="enclosure"/g)).toBe(2);
    expect(feed.items[0]!.enclosures).toEqual([
      {url: 'https://cdn.podcast.example/ep1.mp3?a=1&b=2', type: 'audio/mpeg', length: 12_216_320},
      {url: 'https://cdn.podcast.example/ep1.mp4', type: 'video/mp4', length: TWO_TB},
    ]);
    expect(feed.items[0]!.categories).toEqual(['Talk', 'Tech & Science']);
  });

  it('a feed without enclosures declares no Media RSS namespace', async () => {
    const {text} = await republished('large', 'rss');
    expect(text).not.toContain('xmlns:media');
    expect(text).not.toContain('<enclosure');
  });

  it('the ETag changes when an enclosure does, and the old one no longer matches', async () => {
    const before = await republished('podcast', 'rss');
    const beforeAtom = await republished('podcast', 'atom');
    expect((await republished('podcast', 'rss', {'if-none-match': before.etag!})).status).toBe(304);
    cast.mode = {kind: 'feed', body: podcast(12_216_321), etag: '"ep-v2"'};
    expect(await refresh('podcast')).toEqual({id: 'podcast', status: 'ok'});
    const after = await republished('podcast', 'rss', {'if-none-match': before.etag!});
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(before.etag);
    expect(after.feed.items[0]!.enclosures![0]!.length).toBe(12_216_321);
    expect((await republished('podcast', 'atom')).etag).not.toBe(beforeAtom.etag);
  });
});

describe('bad input', () => {
  it('javascript: and over-long URLs are never republished; a relative URL is as the parser resolved it; a 2 TB length is kept', async () => {
    await refresh('hostile');
    const parsed = parseFeed(hostile(), 'application/rss+xml', {url: bad.url}).items.find((item) => item.guid === 'bad-urls')!.enclosures;
    const expected = [{url: 'https://hostile.example/blog/media/ep.mp3', type: 'audio/mpeg', length: TWO_TB}];
    expect(parsed).toEqual([...expected, {url: LONG_URL, type: 'audio/mpeg', length: 1}]);
    for (const format of ['rss', 'atom'] as const) {
      const {text, feed} = await republished('hostile', format);
      expect(text).not.toContain('javascript:');
      expect(text).not.toContain('xxxxxxxxxx');
      expect(text).toContain(`length="${TWO_TB}"`);
      expect(feed.items.find((item) => item.title === 'Bad URLs')!.enclosures).toEqual(expected);
    }
  });

  it('an item of 10,000 enclosures is published with the parser’s cap of them', async () => {
    const rss = await republished('hostile', 'rss');
    const atom = await republished('hostile', 'atom');
    expect(count(rss.text, /<enclosure /g)).toBe(2);
    expect(count(rss.text, /<media:content /g)).toBe(MAX_ENCLOSURES + 1);
    expect(rss.feed.items.find((item) => item.title === 'Ten thousand enclosures')!.enclosures).toHaveLength(MAX_ENCLOSURES);
    expect(atom.feed.items.find((item) => item.title === 'Ten thousand enclosures')!.enclosures).toHaveLength(MAX_ENCLOSURES);
    expect(rss.feed.items.find((item) => item.title === 'Ten thousand enclosures')!.enclosures![MAX_ENCLOSURES - 1]!.url).toBe(
      `https://cdn.hostile.example/${MAX_ENCLOSURES - 1}.mp3`,
    );
  });

  it('category names with <, & and ]]> are escaped, and read back as they were', async () => {
    expect(parseFeed(hostile(), 'application/rss+xml').items[0]!.categories).toEqual(HOSTILE_CATEGORIES);
    for (const format of ['rss', 'atom'] as const) {
      const {feed} = await republished('hostile', format);
      expect(feed.items.find((item) => item.title === 'Bad URLs')!.categories).toEqual(HOSTILE_CATEGORIES);
    }
    const atom = (await republished('hostile', 'atom')).text;
    expect(atom).toContain('<category term="a &lt; b"/>');
    expect(atom).toContain('<category term="ends ]]&gt; early"/>');
    expect(atom).toContain(`<category term="quote &quot; and apostrophe '"/>`);
  });
});

describe('a store from before enclosures were kept', () => {
  it('the migration forgets the validators, so the next poll fetches the items again with their enclosures', async () => {
    await server.close();
    // What an older gateway left: the copy without enclosures or categories, and the origin's ETag.
    const store = await openGatewayStore(join(dir, 'gateway.sqlite'));
    try {
      const row = (await store.db('gateway_origins').where('name', 'podcast').first()) as {items: string; etag: string | null};
      expect(row.etag).toBe('"ep-v2"');
      const items = (JSON.parse(row.items) as Record<string, unknown>[]).map(({enclosures: _e, categories: _c, ...rest}) => rest);
      // Its version was of the older canonical form (version.ts), so it is not the one a fetch computes now.
      await store
        .db('gateway_origins')
        .where('name', 'podcast')
        .update({items: JSON.stringify(items), version: '0'.repeat(64)});
      await store.db('gateway_migrations').where('name', '002_origin_item_media').delete();
    } finally {
      await store.close();
    }
    server = await start();
    expect((await republished('podcast', 'rss')).feed.items[0]!.enclosures).toBeUndefined();
    const requests = cast.requests.length;
    expect(await refresh('podcast')).toEqual({id: 'podcast', status: 'ok'});
    expect(cast.requests.slice(requests)).toEqual([{ifNoneMatch: null, ifModifiedSince: null}]);
    expect((await republished('podcast', 'rss')).feed.items[0]!.enclosures).toHaveLength(2);
  });
});
