import {XMLParser} from 'fast-xml-parser';
import {describe, expect, it} from 'vitest';
import {parseFeed} from '../../../source/feeds/parser/index.js';
import {chooseRepresentation, createRenderCache, documentVersion, hubUrl, renderFeed, selfUrl} from '../../../source/gateway/render/index.js';
import type {FeedDocument, FeedItem, Representation} from '../../../source/gateway/types.js';
import {wellFormedXml} from '../../helpers/well-formed-xml.js';

const links = {baseUrl: 'http://127.0.0.1:7701'};
const UPDATED = Date.UTC(2026, 10, 3, 12, 0, 0);
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/146.0.0.0 Safari/537.36';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

function item(n: number, overrides: Partial<FeedItem> = {}): FeedItem {
  return {
    id: `https://example.com/posts/${n}`,
    title: `Post ${n}`,
    link: `https://example.com/posts/${n}`,
    description: `<p>Body of <em>post ${n}</em>.</p>`,
    author: `Author ${n}`,
    published: UPDATED - n * 3_600_000,
    ...overrides,
  };
}

function doc(items: FeedItem[], overrides: Partial<Omit<FeedDocument, 'version'>> = {}): FeedDocument {
  const content: Omit<FeedDocument, 'version'> = {
    kind: 'proxied',
    name: 'news',
    title: 'Example News',
    description: 'All the news',
    siteUrl: 'https://example.com/',
    items,
    updatedAt: UPDATED,
    maxAgeSeconds: 600,
    stale: false,
    ...overrides,
  };
  return {...content, version: documentVersion(content)};
}

function items(count: number): FeedItem[] {
  return Array.from({length: count}, (_, i) => item(i + 1));
}

const xml = new XMLParser({ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['item', 'entry', 'link', 'atom:link'].includes(name)});

/** The rendered body as text after checking it is well-formed XML. */
function wellFormed(rendered: {body: Buffer}): string {
  const text = rendered.body.toString('utf8');
  expect(wellFormedXml(text)).toBe(true);
  return text;
}

describe('RSS 2.0 (the default representation)', () => {
  const feed = doc(items(3));
  const rendered = renderFeed(feed, 'rss', links);

  it('is well-formed RSS 2.0 that the feed parser reads back with the right items, newest first', () => {
    const parsed = parseFeed(wellFormed(rendered), rendered.contentType);
    expect(parsed).toMatchObject({format: 'rss', version: 'RSS 2.0', title: 'Example News', link: 'https://example.com/', description: 'All the news'});
    expect(parsed.items.map((entry) => [entry.title, entry.link, entry.guid, entry.author, entry.published])).toEqual(
      feed.items.map((entry) => [entry.title, entry.link, entry.id, entry.author, new Date(entry.published).toISOString()]),
    );
    expect(parsed.items[0].summary).toBe('<p>Body of <em>post 1</em>.</p>');
  });

  it('carries rel=self and rel=hub, RFC 822 dates, lastBuildDate = updatedAt, the content type and validators', () => {
    const channel = xml.parse(rendered.body.toString()).rss.channel;
    expect(channel['atom:link']).toEqual([
      {href: 'http://127.0.0.1:7701/news', rel: 'self', type: 'application/rss+xml'},
      {href: 'http://127.0.0.1:7701/api/websub', rel: 'hub'},
    ]);
    expect(channel.lastBuildDate).toBe('Tue, 03 Nov 2026 12:00:00 GMT');
    expect(channel.item[0].pubDate).toBe('Tue, 03 Nov 2026 11:00:00 GMT');
    expect(rendered.contentType).toBe('application/rss+xml; charset=utf-8');
    expect(rendered.etag).toBe(`"${feed.version}-rss"`);
    expect(rendered.lastModified).toBe('Tue, 03 Nov 2026 12:00:00 GMT');
  });

  it('marks a guid as a permalink only when it is the link', () => {
    const mixed = renderFeed(doc([item(1), item(2, {id: 'tag:example.com,2026:2'}), item(3, {id: 'x-3', link: null})]), 'rss', links);
    const guids = xml.parse(mixed.body.toString()).rss.channel.item.map((entry: {guid: unknown}) => entry.guid);
    expect(guids).toEqual([
      {'#text': 'https://example.com/posts/1', isPermaLink: 'true'},
      {'#text': 'tag:example.com,2026:2', isPermaLink: 'false'},
      {'#text': 'x-3', isPermaLink: 'false'},
    ]);
  });

  it('a channel (no site) links to its own address', () => {
    const channel = renderFeed(doc([item(1)], {kind: 'channel', name: 'c-abc', siteUrl: null, description: null}), 'rss', links);
    const parsed = parseFeed(wellFormed(channel));
    expect(parsed.link).toBe('http://127.0.0.1:7701/c-abc');
    expect(parsed.description).toBe('Example News');
  });
});

describe('Atom 1.0 (?format=atom)', () => {
  const feed = doc(items(3));
  const rendered = renderFeed(feed, 'atom', links);

  it('is well-formed Atom 1.0 that the feed parser reads back with the right items', () => {
    const parsed = parseFeed(wellFormed(rendered), rendered.contentType);
    expect(parsed).toMatchObject({format: 'atom', version: 'Atom 1.0', title: 'Example News', link: 'https://example.com/', description: 'All the news'});
    expect(parsed.items.map((entry) => [entry.title, entry.link, entry.guid, entry.author, entry.published, entry.content])).toEqual(
      feed.items.map((entry) => [entry.title, entry.link, entry.id, entry.author, new Date(entry.published).toISOString(), entry.description]),
    );
  });

  it('links self (?format=atom), hub and the site; has an id, updated = updatedAt, html content', () => {
    const atom = xml.parse(rendered.body.toString()).feed;
    expect(atom.link).toEqual([
      {href: 'http://127.0.0.1:7701/news?format=atom', rel: 'self', type: 'application/atom+xml'},
      {href: 'http://127.0.0.1:7701/api/websub', rel: 'hub'},
      {href: 'https://example.com/', rel: 'alternate', type: 'text/html'},
    ]);
    expect(atom.id).toBe('http://127.0.0.1:7701/news');
    expect(atom.updated).toBe('2026-11-03T12:00:00.000Z');
    expect(atom.entry[0].content.type).toBe('html');
    expect(rendered.contentType).toBe('application/atom+xml; charset=utf-8');
    expect(rendered.etag).toBe(`"${feed.version}-atom"`);
  });

  it('gives an entry whose id is not an IRI one under the feed; an entry with no description has no content element', () => {
    const odd = renderFeed(doc([item(1, {id: '42 & more', link: null, description: null}), item(2, {description: null})]), 'atom', links);
    const text = wellFormed(odd);
    expect(text).not.toContain('<content');
    const [bare, linked] = xml.parse(text).feed.entry;
    expect(bare.id).toBe('http://127.0.0.1:7701/news#42%20%26%20more');
    // With neither content nor a link of its own, it links to the feed's page, which shows it (RFC 4287 4.1.1).
    expect(bare.link).toEqual([{href: 'http://127.0.0.1:7701/news', rel: 'alternate', type: 'text/html'}]);
    expect(linked.link).toEqual([{href: 'https://example.com/posts/2', rel: 'alternate', type: 'text/html'}]);
    expect(linked.content).toBeUndefined();
  });
});

describe('CDATA', () => {
  // White space kept as written: padding around a section is part of the element's text.
  const exact = new XMLParser({ignoreAttributes: false, attributeNamePrefix: '', trimValues: false, isArray: (name) => ['item', 'entry'].includes(name)});

  it('RSS descriptions and Atom content hold the HTML alone, with no white space around the section', () => {
    const feed = doc(items(2));
    const rss = wellFormed(renderFeed(feed, 'rss', links));
    const atom = wellFormed(renderFeed(feed, 'atom', links));
    expect(rss).toContain('<description><![CDATA[<p>Body of <em>post 1</em>.</p>]]></description>');
    expect(atom).toContain('<content type="html"><![CDATA[<p>Body of <em>post 1</em>.</p>]]></content>');
    expect(exact.parse(rss).rss.channel.item.map((entry: {description: string}) => entry.description)).toEqual(feed.items.map((entry) => entry.description));
    expect(exact.parse(atom).feed.entry.map((entry: {content: {'#text': string}}) => entry.content['#text'])).toEqual(feed.items.map((entry) => entry.description));
  });
});

describe('the HTML landing page', () => {
  it('shows the title, description, feed URLs to copy and the newest 20 items, with no script', () => {
    const feed = doc(items(30));
    const rendered = renderFeed(feed, 'html', links);
    const page = rendered.body.toString();
    expect(rendered.contentType).toBe('text/html; charset=utf-8');
    expect(page).toContain('<title>Example News</title>');
    expect(page).toContain('<p>All the news</p>');
    expect(page).toContain('value="http://127.0.0.1:7701/news"');
    expect(page).toContain('value="http://127.0.0.1:7701/news?format=atom"');
    expect(page).toContain('<link rel="alternate" type="application/rss+xml" title="Example News (RSS)" href="http://127.0.0.1:7701/news">');
    expect(page).toContain('The newest 20 of 30 items');
    expect(page).toContain('<a href="https://example.com/posts/20">Post 20</a>');
    expect(page).not.toContain('Post 21<');
    expect(page).not.toMatch(/<script|\son[a-z]+=/i);
    expect(page).not.toContain('last good copy');
    expect(rendered.etag).toBe(`"${feed.version}-html"`);
  });

  it('says when the copy is stale, and its ETag says so too (the bytes differ)', () => {
    const rendered = renderFeed(doc(items(2), {stale: true}), 'html', links);
    expect(rendered.body.toString()).toContain('last good copy');
    expect(rendered.etag).toMatch(/-html-stale"$/);
    expect(renderFeed(doc(items(2), {stale: true}), 'rss', links).etag).toMatch(/-rss"$/);
  });

  it('escapes every text and publishes only http(s) links', () => {
    const page = renderFeed(
      doc([item(1, {title: '<img src=x onerror=alert(1)>"\'', link: 'javascript:alert(1)', author: '<b>me</b>', description: '<script>alert(2)</script>fine'})], {
        title: '</title><script>alert(3)</script>',
        description: '"><svg onload=alert(4)>',
      }),
      'html',
      links,
    ).body.toString();
    expect(page).not.toMatch(/<script|<img|<svg|<b>me|javascript:/i);
    expect(page).toContain('&lt;/title&gt;&lt;script&gt;alert(3)&lt;/script&gt;');
    expect(page).toContain('<strong>&lt;img src=x onerror=alert(1)&gt;&quot;&apos;</strong>');
    expect(page).toContain('fine');
  });

  it('an empty feed says it has no items yet', () => {
    expect(renderFeed(doc([]), 'html', links).body.toString()).toContain('No items yet');
  });
});

describe('hostile input stays valid XML and safe in every representation', () => {
  // U+0085 (NEL) is a character XML 1.0 allows: it stays.
  const kept = 'abcdefgh\u0085ijklm';
  const controls = 'a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg\u007Fh\u0085i\uFFFEj\uFFFFk\uD800l\uDFFFm';
  const hostile = doc(
    [
      item(1, {
        title: `Title ${controls} ]]> <script>alert(1)</script>`,
        description: `<p onclick="x()">text ${controls} ]]> and <![CDATA[ nested ]]></p>`,
        author: `Ann ${controls}`,
      }),
      item(2, {
        description:
          '<img src="/pic.png" onerror="alert(1)"><a href="javascript:alert(1)">click</a><a href="JaVaScRiPt:alert(2)">too</a><iframe src="https://evil.test/"></iframe><script>alert(3)</script><style>*{}</style>',
      }),
      item(3, {id: 'javascript:alert(1)', link: 'javascript:alert(1)', title: 'js link'}),
      item(4, {id: `id ${controls} ]]>`, link: 'https://example.com/a?b=1&c=<2>"', title: 'amp link'}),
      item(5, {description: `<p>${'x'.repeat(100 * 1024)}</p>`, title: 'long'}),
      item(6, {published: Number.NaN, title: 'no date', description: null, author: null}),
    ],
    {title: `Feed ${controls} ]]>`, description: `About ${controls}`, siteUrl: 'javascript:alert(1)'},
  );

  for (const representation of ['rss', 'atom'] as const) {
    it(`${representation}: well-formed, parsed back with every item, no script, handler or javascript: URL`, () => {
      const text = wellFormed(renderFeed(hostile, representation, links));
      // A guid that is not a permalink is only a name; nothing else may carry a javascript: URL.
      expect(text.replace(/<guid isPermaLink="false">[^<]*<\/guid>/g, '')).not.toMatch(/javascript:/i);
      const parsed = parseFeed(text);
      expect(parsed.items.map((entry) => entry.title.slice(0, 5))).toEqual(['Title', 'Post ', 'js li', 'amp l', 'long', 'no da']);
      for (const entry of parsed.items) expect(entry.content ?? entry.summary ?? '').not.toMatch(/<script|<iframe|<style|\son[a-z]+=|javascript:/i);
      const [first, second, third, fourth, long] = parsed.items;
      expect(first.author).toBe(`Ann ${kept}`);
      expect(first.content ?? first.summary).toContain(`text ${kept} ]]&gt; and`);
      expect(second.content ?? second.summary).toContain('<img src="https://example.com/pic.png" />');
      expect(third.link).toBeUndefined();
      expect(fourth.link).toBe('https://example.com/a?b=1&c=%3C2%3E%22');
      expect((long.content ?? long.summary)!.length).toBeGreaterThan(100 * 1024);
    });
  }

  it('atom: a title with markup characters is text, read back exactly', () => {
    const parsed = parseFeed(wellFormed(renderFeed(hostile, 'atom', links)));
    expect(parsed.title).toBe(`Feed ${kept} ]]>`);
    expect(parsed.items[0].title).toBe(`Title ${kept} ]]> <script>alert(1)</script>`);
  });

  it('html: escaped, no forbidden characters, no script', () => {
    const page = renderFeed(hostile, 'html', links).body.toString();
    expect(page).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|<script|<iframe|\son[a-z]+=|javascript:/i);
    expect(page).toContain(`Title ${kept} ]]&gt; &lt;script&gt;`);
  });

  it('an empty feed is a valid feed of no items in every representation', () => {
    const empty = doc([], {description: null, siteUrl: null});
    for (const representation of ['rss', 'atom'] as const) {
      const parsed = parseFeed(wellFormed(renderFeed(empty, representation, links)));
      expect(parsed.title).toBe('Example News');
      expect(parsed.items).toEqual([]);
    }
  });

  it("relative URLs in the same HTML resolve against each item's own link", () => {
    const html = '<a href="/about">about</a>';
    const parsed = parseFeed(renderFeed(doc([item(1, {description: html}), item(2, {description: html, link: 'https://other.example/x'})]), 'rss', links).body);
    expect(parsed.items.map((entry) => entry.summary)).toEqual(['<a href="https://example.com/about">about</a>', '<a href="https://other.example/about">about</a>']);
  });

  it('a blank title falls back to the name', () => {
    const parsed = parseFeed(wellFormed(renderFeed(doc([], {title: '\u0001 '}), 'rss', links)));
    expect(parsed.title).toBe('news');
  });
});

describe('negotiation (spec 2, part B: GET /<name>)', () => {
  const table: [string, {format?: string | string[]}, {accept?: string; userAgent?: string}, Representation][] = [
    ['no negotiation: RSS 2.0, the default', {}, {}, 'rss'],
    ['curl: RSS', {}, {accept: '*/*', userAgent: 'curl/8.5.0'}, 'rss'],
    ['?format=atom', {format: 'atom'}, {}, 'atom'],
    ['?format=atom beats a browser asking for HTML', {format: 'atom'}, {accept: BROWSER_ACCEPT, userAgent: FIREFOX}, 'atom'],
    ['?format=rss beats a browser asking for HTML', {format: 'rss'}, {accept: BROWSER_ACCEPT, userAgent: CHROME}, 'rss'],
    ['?format=html', {format: 'html'}, {userAgent: 'curl/8.5.0'}, 'html'],
    ['?format=ATOM (case does not matter)', {format: 'ATOM'}, {}, 'atom'],
    ['an empty ?format= is no format', {format: ''}, {accept: BROWSER_ACCEPT, userAgent: FIREFOX}, 'html'],
    ['Firefox asking for HTML: the landing page', {}, {accept: BROWSER_ACCEPT, userAgent: FIREFOX}, 'html'],
    ['Chrome asking for HTML: the landing page', {}, {accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', userAgent: CHROME}, 'html'],
    ['curl asking for text/html: RSS (not a browser)', {}, {accept: 'text/html', userAgent: 'curl/8.5.0'}, 'rss'],
    ['no user agent asking for text/html: RSS', {}, {accept: 'text/html'}, 'rss'],
    ['a feed reader borrowing Mozilla/: RSS', {}, {accept: 'text/html', userAgent: 'Mozilla/5.0 (compatible; Feedly/1.0; +http://www.feedly.com/fetcher.html)'}, 'rss'],
    ['a crawler: RSS', {}, {accept: 'text/html', userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'}, 'rss'],
    ['a browser without Accept: RSS', {}, {userAgent: FIREFOX}, 'rss'],
    ['a browser accepting anything: RSS', {}, {accept: '*/*', userAgent: FIREFOX}, 'rss'],
    ['a browser preferring RSS by q: RSS', {}, {accept: 'application/rss+xml, text/html;q=0.5', userAgent: FIREFOX}, 'rss'],
    ['a browser preferring HTML by q: HTML', {}, {accept: 'application/atom+xml;q=0.4, text/html;q=0.9', userAgent: FIREFOX}, 'html'],
    ['HTML and RSS at the same q: RSS', {}, {accept: 'text/html, application/rss+xml', userAgent: FIREFOX}, 'rss'],
    ['text/html;q=0 refuses HTML', {}, {accept: 'text/html;q=0, */*', userAgent: FIREFOX}, 'rss'],
    ['XHTML counts as HTML', {}, {accept: 'application/xhtml+xml', userAgent: FIREFOX}, 'html'],
    ['garbage Accept: RSS', {}, {accept: ';;,q=,text/html;q=abc', userAgent: FIREFOX}, 'rss'],
    ['a q above 1 is malformed: RSS', {}, {accept: 'text/html;q=1.5', userAgent: FIREFOX}, 'rss'],
    ['media type parameters before q', {}, {accept: 'text/html;level=1;q=0.8, application/rss+xml;q=0.7', userAgent: FIREFOX}, 'html'],
    ['Accept case does not matter', {}, {accept: 'TEXT/HTML', userAgent: FIREFOX}, 'html'],
  ];
  it.each(table)('%s', (_name, query, headers, expected) => {
    expect(chooseRepresentation(query, headers)).toBe(expected);
  });

  it('an unknown format is invalid_argument naming the choices', () => {
    expect(() => chooseRepresentation({format: 'json'}, {})).toThrow(expect.objectContaining({code: 'invalid_argument', message: expect.stringMatching(/rss, atom, html/)}));
    expect(() => chooseRepresentation({format: ['atom', 'rss']}, {})).toThrow(expect.objectContaining({code: 'invalid_argument'}));
    expect(() => chooseRepresentation({format: 'x'.repeat(10_000)}, {})).toThrow(expect.objectContaining({message: expect.not.stringMatching(/x{41}/)}));
  });
});

describe('links', () => {
  it('self is /<name> (RSS, HTML) or /<name>?format=atom; the hub is /api/websub', () => {
    expect(selfUrl(links, 'news', 'rss')).toBe('http://127.0.0.1:7701/news');
    expect(selfUrl(links, 'news', 'html')).toBe('http://127.0.0.1:7701/news');
    expect(selfUrl(links, 'news', 'atom')).toBe('http://127.0.0.1:7701/news?format=atom');
    expect(hubUrl(links)).toBe('http://127.0.0.1:7701/api/websub');
  });
});

describe('version and ETag', () => {
  it('is stable across renders: same content, same bytes and ETag', () => {
    for (const representation of ['rss', 'atom', 'html'] as const) {
      const first = renderFeed(doc(items(5)), representation, links);
      const second = renderFeed(doc(items(5)), representation, links);
      expect(second.etag).toBe(first.etag);
      expect(second.body.equals(first.body)).toBe(true);
    }
    expect(documentVersion(doc(items(5)))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes when an item changes in any field, or the feed title, description or site does', () => {
    const base = doc(items(3)).version;
    const changed = [
      doc([item(1, {title: 'Post one'}), item(2), item(3)]),
      doc([item(1, {description: '<p>edited</p>'}), item(2), item(3)]),
      doc([item(1, {link: 'https://example.com/moved'}), item(2), item(3)]),
      doc([item(1, {author: null}), item(2), item(3)]),
      doc([item(1, {published: 0}), item(2), item(3)]),
      doc([item(1, {id: 'other'}), item(2), item(3)]),
      doc(items(4)),
      doc([item(2), item(1), item(3)]),
      doc(items(3), {title: 'Other'}),
      doc(items(3), {description: null}),
      doc(items(3), {siteUrl: 'https://example.org/'}),
    ];
    const versions = changed.map((feed) => feed.version);
    expect(versions).not.toContain(base);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('does not change with updatedAt, the stale flag or max-age (nothing a build date would move)', () => {
    const base = doc(items(3));
    const later = doc(items(3), {updatedAt: UPDATED + 60_000, stale: true, maxAgeSeconds: 60});
    expect(later.version).toBe(base.version);
    expect(renderFeed(later, 'rss', links).etag).toBe(renderFeed(base, 'rss', links).etag);
  });

  it('Last-Modified is the HTTP date of updatedAt (the epoch when that is not a time)', () => {
    expect(renderFeed(doc([], {updatedAt: Number.NaN}), 'rss', links).lastModified).toBe('Thu, 01 Jan 1970 00:00:00 GMT');
  });
});

describe('the render cache', () => {
  it('returns the same Buffer while the version is the same, and renders again when it changes', () => {
    const cache = createRenderCache();
    const first = cache.get(doc(items(3)), 'rss', links);
    // A new document object with the same content (a later poll that brought the same items).
    const again = cache.get(doc(items(3), {updatedAt: UPDATED + 1}), 'rss', links);
    expect(again.body).toBe(first.body);
    const changed = cache.get(doc(items(4)), 'rss', links);
    expect(changed.body).not.toBe(first.body);
    expect(changed.etag).not.toBe(first.etag);
    expect(parseFeed(changed.body).items).toHaveLength(4);
  });

  it('keeps representations and names apart, and misses when the base URL changes', () => {
    const cache = createRenderCache();
    const rss = cache.get(doc(items(2)), 'rss', links);
    const atom = cache.get(doc(items(2)), 'atom', links);
    const other = cache.get(doc(items(2), {name: 'other'}), 'rss', links);
    expect(atom.body).not.toBe(rss.body);
    expect(other.body.toString()).toContain('http://127.0.0.1:7701/other');
    const moved = cache.get(doc(items(2)), 'rss', {baseUrl: 'https://feeds.example.net'});
    expect(moved.body.toString()).toContain('https://feeds.example.net/news');
    expect(cache.get(doc(items(2)), 'atom', links).body).toBe(atom.body);
  });

  it('renders the landing page again when the stale note comes or goes', () => {
    const cache = createRenderCache();
    const fresh = cache.get(doc(items(2)), 'html', links);
    const stale = cache.get(doc(items(2), {stale: true}), 'html', links);
    expect(stale.body.toString()).toContain('last good copy');
    expect(stale.etag).not.toBe(fresh.etag);
    const rss = cache.get(doc(items(2)), 'rss', links);
    expect(cache.get(doc(items(2), {stale: true}), 'rss', links).body).toBe(rss.body);
  });

  it('is bounded: the least recently used representation goes first', () => {
    const cache = createRenderCache({maxEntries: 2});
    const a = cache.get(doc(items(1), {name: 'a'}), 'rss', links);
    const b = cache.get(doc(items(1), {name: 'b'}), 'rss', links);
    expect(cache.get(doc(items(1), {name: 'a'}), 'rss', links).body).toBe(a.body);
    cache.get(doc(items(1), {name: 'c'}), 'rss', links);
    expect(cache.get(doc(items(1), {name: 'a'}), 'rss', links).body).toBe(a.body);
    expect(cache.get(doc(items(1), {name: 'b'}), 'rss', links).body).not.toBe(b.body);
  });

  it('forget(name) drops every representation of that name', () => {
    const cache = createRenderCache();
    const rss = cache.get(doc(items(1)), 'rss', links);
    const html = cache.get(doc(items(1)), 'html', links);
    cache.forget('news');
    expect(cache.get(doc(items(1)), 'rss', links).body).not.toBe(rss.body);
    expect(cache.get(doc(items(1)), 'html', links).body).not.toBe(html.body);
  });
});
