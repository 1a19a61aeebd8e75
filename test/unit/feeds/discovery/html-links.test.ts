import {describe, expect, it} from 'vitest';
import {feedLinks, wellKnownCandidates} from '../../../../source/feeds/discovery/index.js';

describe('feedLinks', () => {
  it('reads links with attributes in any order, any quoting and any case', () => {
    const html = `<head>
      <link type="application/rss+xml" href="/a.xml" rel="alternate" title="A">
      <link href='/b.xml' rel='alternate' type='application/atom+xml'>
      <LINK REL=ALTERNATE TYPE=application/feed+json HREF=/c.json>
      <link rel="alternate" type="application/rss+xml; charset=utf-8" href="/d.xml"/>
    </head>`;
    expect(feedLinks(html, 'https://blog.example/post/1')).toEqual([
      {url: 'https://blog.example/a.xml', title: 'A', format: 'rss'},
      {url: 'https://blog.example/b.xml', title: null, format: 'atom'},
      {url: 'https://blog.example/c.json', title: null, format: 'json'},
      {url: 'https://blog.example/d.xml', title: null, format: 'rss'},
    ]);
  });

  it('resolves relative hrefs against the page, or against <base href> when there is one', () => {
    const link = '<link rel="alternate" type="application/rss+xml" href="feed.xml">';
    expect(feedLinks(link, 'https://example.org/blog/post')[0]!.url).toBe('https://example.org/blog/feed.xml');
    expect(feedLinks(`<base href="https://cdn.example.org/x/">${link}`, 'https://example.org/blog/post')[0]!.url).toBe('https://cdn.example.org/x/feed.xml');
    expect(feedLinks(`<base href="/other/">${link}`, 'https://example.org/blog/post')[0]!.url).toBe('https://example.org/other/feed.xml');
  });

  it('decodes entities in href and title', () => {
    const html = '<link rel="alternate" type="application/rss+xml" href="/f?a=1&amp;b=2" title="News &amp; notes &#8212; daily">';
    expect(feedLinks(html, 'https://example.org/')).toEqual([{url: 'https://example.org/f?a=1&b=2', title: 'News & notes \u2014 daily', format: 'rss'}]);
  });

  it('skips comments, scripts, non-feed alternates, duplicates, WordPress REST links and javascript: hrefs', () => {
    const html = `<!-- <link rel="alternate" type="application/rss+xml" href="/old.xml"> -->
      <script>document.write('<link rel="alternate" type="application/rss+xml" href="/js.xml">')</script>
      <link rel="alternate" hreflang="de" href="/de/">
      <link rel="stylesheet" type="application/rss+xml" href="/not-alternate.xml">
      <link rel="alternate" type="application/json" href="/wp-json/wp/v2/posts">
      <link rel="alternate" type="application/rss+xml" href="javascript:void(0)">
      <link rel="alternate" type="application/rss+xml" href="/real.xml">
      <link rel="alternate" type="application/rss+xml" href="https://example.org/real.xml">`;
    expect(feedLinks(html, 'https://example.org/')).toEqual([{url: 'https://example.org/real.xml', title: null, format: 'rss'}]);
  });

  it('finds nothing in a page without feed links', () => {
    expect(feedLinks('<html><head><link rel="icon" href="/favicon.ico"></head></html>', 'https://example.org/')).toEqual([]);
  });
});

describe('wellKnownCandidates', () => {
  it('lists root paths, then the page folder, without the page itself', () => {
    const root = wellKnownCandidates('https://example.org/');
    expect(root).toContain('https://example.org/feed');
    expect(root).toContain('https://example.org/feeds/posts/default');
    expect(root.every((url) => url.startsWith('https://example.org/'))).toBe(true);
    const nested = wellKnownCandidates('https://example.org/blog/index.html');
    expect(nested).toContain('https://example.org/rss.xml');
    expect(nested).toContain('https://example.org/blog/rss.xml');
    expect(nested.indexOf('https://example.org/rss.xml')).toBeLessThan(nested.indexOf('https://example.org/blog/rss.xml'));
    expect(wellKnownCandidates('https://example.org/feed')).not.toContain('https://example.org/feed');
  });
});
