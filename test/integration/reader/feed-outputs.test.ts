// What the reader publishes (list RSS, OPML export) and stores (links) is right whatever the feeds
// send: links made absolute against the feed's URL and xml:base at subscribe and refresh, control
// characters gone, HTML sanitised, well-formed XML parsed back every time (issue 7 items 12, 13).
// Real service, real SQLite store, real fetcher; the feeds come from an origin on 127.0.0.1.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {readOpml} from '../../../source/feeds/opml/index.js';
import {parseFeed} from '../../../source/feeds/parser/index.js';
import {fetchFeed} from '../../../source/feeds/fetcher/index.js';
import {startOrigin, type TestOrigin} from '../../helpers/test-network.js';
import {wellFormedXml} from '../../helpers/well-formed-xml.js';
import {readerHarness, type Harness} from './reader-harness.js';

const C1 = '\u0001';
const HOSTILE_HTML = `<p onclick="steal()">Hello${C1} <b>world</b></p><script>alert(1)</script><img src="pic.png" onerror="alert(2)"><a href="javascript:alert(3)">js</a> <a href="more.html">more</a><iframe src="https://evil.example/"></iframe><style>body{}</style>`;
let extraItem = false;

function rss(): string {
  const items = [
    `<item><title>First${C1} item</title><link>posts/1.html</link><guid isPermaLink="false">1</guid><author>a${C1}@b.example (A)</author><category>news${C1}</category><description><![CDATA[${HOSTILE_HTML}]]></description></item>`,
    `<item><title>Second\u000b item \u0085</title><link>/root/2.html</link><guid isPermaLink="false">2</guid><description>plain &lt;i&gt;text&lt;/i&gt;</description></item>`,
  ];
  if (extraItem) items.unshift('<item><title>Third</title><link>posts/3.html?a=1&amp;b=2</link><guid isPermaLink="false">3</guid></item>');
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Relative${C1} links</title><link>./</link><description>d</description>${items.join('')}</channel></rss>`;
}

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="/atom/base/"><title>Based</title><id>urn:x</id><link href="home/"/>
<entry><id>urn:1</id><title>Entry</title><link href="entry-1"/><updated>2026-01-01T00:00:00Z</updated></entry>
<entry xml:base="/other/"><id>urn:2</id><title>Entry 2</title><link href="entry-2"/><updated>2026-01-02T00:00:00Z</updated></entry>
</feed>`;

// Titles that are plain text with markup characters in them (issue 28).
const TITLES = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Titles</title><id>urn:t</id>
<entry><id>urn:t:1</id><title type="text">Use &lt;div&gt; wisely: AT&amp;T Q&amp;A</title><link href="https://example.com/t/1"/><updated>2026-01-02T00:00:00Z</updated></entry>
<entry><id>urn:t:2</id><title type="text">First &amp; foremost</title><link href="https://example.com/t/2"/><updated>2026-01-01T00:00:00Z</updated></entry>
</feed>`;

let origin: TestOrigin;
let base: string;
beforeAll(async () => {
  origin = await startOrigin((request, response) => {
    const path = new URL(request.url ?? '/', 'http://origin').pathname;
    if (path === '/blog/feed.xml') return void response.writeHead(200, {'content-type': 'application/rss+xml'}).end(rss());
    if (path === '/atom.xml') return void response.writeHead(200, {'content-type': 'application/atom+xml'}).end(ATOM);
    if (path === '/moved.xml') return void response.writeHead(301, {location: '/blog/feed.xml'}).end();
    if (path === '/titles.xml') return void response.writeHead(200, {'content-type': 'application/atom+xml'}).end(TITLES);
    response.writeHead(404).end();
  });
  base = `http://127.0.0.1:${origin.port}`;
});
afterAll(() => origin.close());

let dir: string;
let reader: Harness;
beforeEach(async () => {
  extraItem = false;
  dir = mkdtempSync(join(tmpdir(), 'wb-feed-outputs-'));
  reader = await readerHarness(join(dir, 'reader.sqlite'));
});
afterEach(async () => {
  await reader.close();
  rmSync(dir, {recursive: true, force: true});
});

const subscribe = async (url: string) => {
  const answer = await reader.call('POST', '/feeds', {url});
  expect(answer.status, answer.text).toBe(201);
  return answer.body as {id: number; siteUrl: string | null; title: string};
};
const links = async (feedId: number) => (await reader.service.listArticles({feed_id: feedId})).articles.map((article) => article.link);
/** What `feeds parse <url>` shows: the fetched body parsed with its document URL. */
const parsedLinks = async (url: string) => {
  const fetched = await fetchFeed(url);
  const parsed = parseFeed(fetched.body, fetched.contentType, {url: fetched.finalUrl});
  return {site: parsed.link, items: parsed.items.map((item) => item.link)};
};

describe('links are absolute (item 12)', () => {
  it('subscribe stores item and site links resolved against the feed URL, as the parser gives them', async () => {
    const feed = await subscribe(`${base}/blog/feed.xml`);
    expect(feed.siteUrl).toBe(`${base}/blog/`);
    expect(await links(feed.id)).toEqual([`${base}/blog/posts/1.html`, `${base}/root/2.html`]);
    const parsed = await parsedLinks(`${base}/blog/feed.xml`);
    expect(feed.siteUrl).toBe(parsed.site);
    expect(await links(feed.id)).toEqual(parsed.items);
  });

  it('refresh resolves new items too, and a redirected feed resolves against where it was found', async () => {
    const feed = await subscribe(`${base}/moved.xml`);
    extraItem = true;
    expect(await reader.service.refresh(feed.id)).toEqual({newArticles: 1});
    expect((await links(feed.id))[0]).toBe(`${base}/blog/posts/3.html?a=1&b=2`);
  });

  it('xml:base on the feed and on an entry applies', async () => {
    const feed = await subscribe(`${base}/atom.xml`);
    expect(feed.siteUrl).toBe(`${base}/atom/base/home/`);
    expect(await links(feed.id)).toEqual([`${base}/other/entry-2`, `${base}/atom/base/entry-1`]);
  });
});

describe('list RSS is valid XML whatever the feeds sent (item 13)', () => {
  const sharedList = async () => {
    const feed = await subscribe(`${base}/blog/feed.xml`);
    const list = await reader.service.createList('Shared', 'public');
    for (const article of (await reader.service.listArticles({feed_id: feed.id})).articles) await reader.service.addToList(list.id, article.id);
    return list;
  };

  it('has no control characters, no script or event handler, only absolute links, and parses back', async () => {
    const list = await sharedList();
    const answer = await reader.call('GET', `/lists/${list.token}.xml`);
    expect(answer.status).toBe(200);
    expect(wellFormedXml(answer.text)).toBe(true);
    expect(answer.text).not.toMatch(/<script|onerror|onclick|javascript:|<iframe|<style/i);
    expect(answer.text).not.toContain('&lt;script');
    const parsed = parseFeed(answer.text, 'application/rss+xml');
    const titles = parsed.items.map((item) => item.title);
    expect(titles).toHaveLength(2);
    expect(titles[0]).toMatch(/^Second item\b/);
    expect(titles[1]).toBe('First item');
    for (const item of parsed.items) expect(new URL(item.link!).origin).toBe(base);
    const first = parsed.items[1]!;
    expect(first.categories).toEqual(['news']);
    // Relative URLs inside the HTML are made absolute against the article's link.
    expect(first.summary ?? first.content).toContain(`src="${base}/blog/posts/pic.png"`);
    expect(first.summary ?? first.content).toContain(`href="${base}/blog/posts/more.html"`);
    // Each CDATA section is the whole description: no newline and indent around it for a reader to store.
    const descriptions = [...answer.text.matchAll(/<description>([\s\S]*?)<\/description>/g)].map((match) => match[1]!).filter((text) => text.includes('CDATA'));
    expect(descriptions.length).toBeGreaterThan(0);
    for (const text of descriptions) expect(text).toMatch(/^<!\[CDATA\[[\s\S]*\]\]>$/);
  });

  it('writes a title with & and <div> as plain text: escaped for XML, never taken for markup', async () => {
    const feed = await subscribe(`${base}/titles.xml`);
    const list = await reader.service.createList('Titles', 'public');
    for (const article of (await reader.service.listArticles({feed_id: feed.id})).articles) await reader.service.addToList(list.id, article.id);
    const answer = await reader.call('GET', `/lists/${list.token}.xml`);
    expect(wellFormedXml(answer.text)).toBe(true);
    // In RSS a title is text: XML-escaped (or in CDATA), not HTML-escaped a second time.
    const titles = [...answer.text.matchAll(/<item>\s*<title>\s*(?:<!\[CDATA\[(.*?)\]\]>|([^<]*))\s*<\/title>/g)].map(
      (match) => match[1] ?? match[2]!.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'),
    );
    expect(titles.sort()).toEqual(['First & foremost', 'Use <div> wisely: AT&T Q&A']);
  });

  it('sends ETag and Last-Modified and answers a conditional GET with 304 until the list changes', async () => {
    const list = await sharedList();
    const url = `/api/v1/lists/${list.token}.xml`;
    const first = await reader.app.inject({method: 'GET', url});
    const etag = first.headers.etag as string;
    const modified = first.headers['last-modified'] as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(new Date(modified).getTime()).toBeGreaterThan(0);

    const byTag = await reader.app.inject({method: 'GET', url, headers: {'if-none-match': etag}});
    expect(byTag.statusCode).toBe(304);
    expect(byTag.body).toBe('');
    expect((await reader.app.inject({method: 'GET', url, headers: {'if-none-match': `W/${etag}, "other"`}})).statusCode).toBe(304);
    expect((await reader.app.inject({method: 'GET', url, headers: {'if-modified-since': modified}})).statusCode).toBe(304);
    expect((await reader.app.inject({method: 'GET', url, headers: {'if-none-match': '"stale"', 'if-modified-since': modified}})).statusCode).toBe(200);

    const [article] = (await reader.service.listArticles({})).articles;
    await reader.service.removeFromList(list.id, article!.id);
    const changed = await reader.app.inject({method: 'GET', url, headers: {'if-none-match': etag}});
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(wellFormedXml(changed.body)).toBe(true);
  });
});

describe('OPML is valid XML whatever the store holds (item 13)', () => {
  const opml = (body: string) => `<?xml version="1.0"?><opml version="2.0"><head><title>t</title></head><body>${body}</body></opml>`;
  const importOpml = async (xml: string) => {
    const answer = await reader.app.inject({method: 'POST', url: '/api/v1/opml', headers: {'content-type': 'text/x-opml'}, payload: xml});
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as {added: number};
  };
  const exportOpml = async () => {
    const answer = await reader.app.inject({method: 'GET', url: '/api/v1/opml'});
    expect(answer.statusCode, answer.body).toBe(200);
    expect(wellFormedXml(answer.body)).toBe(true);
    return answer.body;
  };

  it('an empty store exports an empty OPML, which imports as nothing', async () => {
    const xml = await exportOpml();
    expect(readOpml(xml)).toEqual([]);
  });

  it('a feed title with U+0001 exports as well-formed XML and comes back', async () => {
    const feed = await subscribe(`${base}/blog/feed.xml`);
    expect(feed.title).toBe(`Relative${C1} links`);
    const entries = readOpml(await exportOpml());
    expect(entries).toEqual([{url: `${base}/blog/feed.xml`, title: 'Relative links', category: null, siteUrl: `${base}/blog/`}]);
  });

  it('htmlUrl survives import and export', async () => {
    await importOpml(opml('<outline type="rss" text="Site" xmlUrl="https://a.example/feed.xml" htmlUrl="https://a.example/"/>'));
    expect(await reader.service.listFeeds()).toMatchObject([{url: 'https://a.example/feed.xml', siteUrl: 'https://a.example/'}]);
    expect(await exportOpml()).toContain('htmlUrl="https://a.example/"');
  });

  it('a 99-deep folder is flattened at import, so the export stays readable and imports again', async () => {
    let outline = '<outline type="rss" text="Deep" xmlUrl="https://deep.example/feed.xml"/>';
    for (let depth = 99; depth >= 1; depth--) outline = `<outline text="level${depth}">${outline}</outline>`;
    expect(await importOpml(opml(outline))).toMatchObject({added: 1});
    const [feed] = await reader.service.listFeeds();
    expect(feed!.category).toBe('level1/level2/level3/level4/level5/level6/level7/level8');
    const entries = readOpml(await exportOpml());
    expect(entries).toEqual([{url: 'https://deep.example/feed.xml', title: 'Deep', category: feed!.category, siteUrl: null}]);
  });

  it('a category deeper than the limit set through the API is written at most 8 folders deep', async () => {
    const feed = await subscribe(`${base}/atom.xml`);
    await reader.service.store
      .db('feeds')
      .where('id', feed.id)
      .update({category: Array.from({length: 60}, (_, index) => `f${index}`).join('/')});
    const [entry] = readOpml(await exportOpml());
    expect(entry!.category!.split('/')).toHaveLength(8);
  });
});
