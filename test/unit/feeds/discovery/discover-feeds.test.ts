import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {WorkbenchError} from '../../../../source/core/errors.js';
import {discoverFeeds} from '../../../../source/feeds/discovery/index.js';
import {sniffFeedFormat} from '../../../../source/feeds/discovery/sniff.js';
import {fetchFeed} from '../../../../source/feeds/fetcher/index.js';
import {startFeedOrigin, type FeedOrigin} from '../../../../fixtures/feed-origin/server.mjs';

// A tiny stand-in for the parser: the format by sniffing, the first <title> or "title" key.
function parse(body: Buffer) {
  const format = sniffFeedFormat(body);
  if (!format) throw new Error('not a feed');
  const text = body.toString('utf8');
  if (text.includes('<!ENTITY')) throw new WorkbenchError('not_a_feed', 'entity declarations are not read');
  const title = format === 'json' ? (JSON.parse(text) as {title: string}).title : (/<title>([^<]*)<\/title>/.exec(text)?.[1] ?? '');
  return {title, format};
}

let origin: FeedOrigin;
beforeAll(async () => {
  origin = await startFeedOrigin();
});
afterAll(async () => {
  await origin.close();
});

describe('discoverFeeds', () => {
  it('returns the URL itself when it is a feed', async () => {
    const feeds = await discoverFeeds(`${origin.url}/gen/self.xml`, {parse});
    expect(feeds).toEqual([{url: `${origin.url}/gen/self.xml`, title: 'Generated feed self', format: 'rss'}]);
  });

  it('recognises a JSON Feed', async () => {
    const feeds = await discoverFeeds(`${origin.url}/data/feedparser/json/example.json`, {parse});
    expect(feeds).toEqual([{url: `${origin.url}/data/feedparser/json/example.json`, title: 'My Example Feed', format: 'json'}]);
  });

  it('names a permanently moved feed by its new URL, a temporarily redirected one by the given URL', async () => {
    expect((await discoverFeeds(`${origin.url}/moved`, {parse}))[0]!.url).toBe(`${origin.url}/gen/moved.xml`);
    expect((await discoverFeeds(`${origin.url}/temporary`, {parse}))[0]!.url).toBe(`${origin.url}/temporary`);
  });

  it('lists the feeds a page links with <link rel="alternate">, resolved against <base href>', async () => {
    const feeds = await discoverFeeds(`${origin.url}/page/several.html`, {parse});
    expect(feeds).toEqual([
      {url: `${origin.url}/page/base/posts.xml`, title: 'Posts (RSS)', format: 'rss'},
      {url: `${origin.url}/gen/comments.xml`, title: 'Comments & replies', format: 'atom'},
      {url: 'https://example.com/feed.json', title: 'JSON', format: 'json'},
      {url: `${origin.url}/gen/tagged.xml?tag=a&page=1`, title: null, format: 'rss'},
    ]);
    // Links are enough: no well-known path was probed.
    expect(origin.hits.get('/feed')).toBeUndefined();
  });

  it('probes well-known paths when the page links nothing, keeping only answers that are feeds', async () => {
    const feeds = await discoverFeeds(`${origin.url}/site/`, {parse});
    expect(feeds).toEqual([
      {url: `${origin.url}/site/atom.xml`, title: 'Generated Atom site', format: 'atom'},
      {url: `${origin.url}/site/feed.xml`, title: 'Generated feed site', format: 'rss'},
    ]);
    // /site/index.xml answered with HTML, and was asked.
    expect(origin.hits.get('/site/index.xml')).toBe(1);
  });

  it('returns [] for a page with no feed anywhere', async () => {
    expect(await discoverFeeds(`${origin.url}/page/none.html`, {parse})).toEqual([]);
    expect(origin.hits.get('/page/rss.xml')).toBeGreaterThanOrEqual(1);
    expect(origin.hits.get('/rss.xml')).toBeGreaterThanOrEqual(1);
  });

  it('probes with a small concurrency', async () => {
    let active = 0;
    let peak = 0;
    const counting: typeof fetchFeed = async (url, options) => {
      active++;
      peak = Math.max(peak, active);
      try {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return await fetchFeed(url, options);
      } finally {
        active--;
      }
    };
    await discoverFeeds(`${origin.url}/page/none.html`, {parse, fetch: counting, probeConcurrency: 3});
    expect(peak).toBe(3);
  });

  it('passes the parser error on for a URL that looks like a feed but does not parse', async () => {
    const error = await discoverFeeds(`${origin.url}/bomb.xml`, {parse}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WorkbenchError);
    expect(error).toMatchObject({code: 'not_a_feed', message: 'entity declarations are not read'});
  });

  it('passes fetch errors of the URL itself on', async () => {
    await expect(discoverFeeds(`${origin.url}/status/500`, {parse})).rejects.toMatchObject({code: 'feed_unreachable'});
    await expect(discoverFeeds('ftp://example.org/feed', {parse})).rejects.toMatchObject({code: 'invalid_argument'});
  });
});
