import {describe, expect, it} from 'vitest';
import {parseFeed} from '../../../../source/feeds/parser/index.js';

describe('RSS fields', () => {
  const feed = parseFeed(`<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:DC="http://purl.org/dc/elements/1.1/" xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0">
<channel>
  <title>  The   <b>Example</b>
     Blog </title>
  <link>https://blog.example/</link>
  <description>News &amp;amp; notes</description>
  <ttl>90</ttl>
  <item>
    <title>Fish &amp;amp; chips &lt;em&gt;today&lt;/em&gt;</title>
    <link>/posts/fish</link>
    <guid isPermaLink="false">post-1</guid>
    <DC:creator>Ann</DC:creator>
    <category>Food</category><category> Food </category><category>UK</category>
    <pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate>
    <description>&lt;p&gt;Short&lt;/p&gt;</description>
    <content:encoded><![CDATA[<p>Long <a href="/x">read</a></p>]]></content:encoded>
  </item>
  <item>
    <description><![CDATA[<p>No title here, so the first words of this description name the entry instead of nothing at all.</p>]]></description>
    <link>javascript:alert(1)</link>
  </item>
  <item><link>https://blog.example/only-a-link</link></item>
  <item><title>moved</title><link>https://feedproxy.example/~r/x</link><feedburner:origLink>https://blog.example/real</feedburner:origLink></item>
</channel>
</rss>`);

  it('channel: title as one line of text, link, description, ttl', () => {
    expect(feed).toMatchObject({format: 'rss', version: 'RSS 2.0', title: 'The Example Blog', link: 'https://blog.example/', description: 'News & notes', ttlMinutes: 90});
  });

  it('item: title decoded and stripped, relative link resolved against the channel link, Dublin Core under any prefix', () => {
    expect(feed.items[0]).toEqual({
      guid: 'post-1',
      title: 'Fish & chips today',
      link: 'https://blog.example/posts/fish',
      author: 'Ann',
      published: '2003-06-10T04:00:00.000Z',
      summary: '<p>Short</p>',
      content: '<p>Long <a href="/x">read</a></p>',
      categories: ['Food', 'UK'],
    });
  });

  it('an untitled entry is named by its first words, or by its link; unsafe links are dropped', () => {
    expect(feed.items[1].title).toBe('No title here, so the first words of this description name the entry instead of…');
    expect(feed.items[1].link).toBeUndefined();
    expect(feed.items[2].title).toBe('https://blog.example/only-a-link');
  });

  it("FeedBurner's origLink is the real link", () => {
    expect(feed.items[3].link).toBe('https://blog.example/real');
  });

  it('relative links: the site link resolves against the document URL, entries against the site link, xml:base beats both', () => {
    const body = '<rss><channel><link>/home/</link><item><link>a</link></item><item xml:base="https://cdn.example/sub/"><link>b</link></item></channel></rss>';
    const parsed = parseFeed(body, null, {url: 'https://origin.example/feeds/main.xml'});
    expect(parsed.link).toBe('https://origin.example/home/');
    expect(parsed.items.map((item) => item.link)).toEqual(['https://origin.example/home/a', 'https://cdn.example/sub/b']);
    // Without a site link, the document URL.
    expect(parseFeed('<rss><channel><item><link>a</link></item></channel></rss>', null, {url: 'https://origin.example/feeds/main.xml'}).items[0].link).toBe(
      'https://origin.example/feeds/a',
    );
  });

  it('an RSS feed in an unknown default namespace still reads', () => {
    const parsed = parseFeed('<rss xmlns="http://example.com/made-up" version="2.0"><channel><title>ns</title><item><title>i</title></item></channel></rss>');
    expect(parsed.title).toBe('ns');
    expect(parsed.items[0].title).toBe('i');
  });
});

describe('Atom fields', () => {
  const feed = parseFeed(`<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xml:base="https://example.org/blog/">
  <title type="html">&lt;i&gt;Atom&lt;/i&gt; &amp;amp; more</title>
  <subtitle>All the news</subtitle>
  <link rel="self" href="https://example.org/feed.atom"/>
  <link rel="alternate" type="text/html" href="./"/>
  <author><name>Feed Author</name></author>
  <entry>
    <id>urn:uuid:1</id>
    <title type="text">A &lt;tag&gt; in text</title>
    <link rel="enclosure" href="/audio.mp3"/>
    <link href="2024/post"/>
    <published>2024-05-01T10:00:00+02:00</published>
    <updated>2024-05-02T10:00:00Z</updated>
    <category term="js" label="JavaScript"/>
    <summary type="text">1 &lt; 2</summary>
    <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Hi <xhtml:b xmlns:xhtml="http://www.w3.org/1999/xhtml">there</xhtml:b></p></div></content>
  </entry>
  <entry xml:base="/other/">
    <id>urn:uuid:2</id>
    <title>Video</title>
    <author><name>Own Author</name></author>
    <link rel="alternate" href="watch"/>
    <media:group><media:description>Plain text &amp; more</media:description></media:group>
    <content src="https://example.org/elsewhere"/>
  </entry>
</feed>`);

  it('feed: HTML title as text, resolved alternate link (not self), subtitle', () => {
    expect(feed).toMatchObject({format: 'atom', version: 'Atom 1.0', title: 'Atom & more', link: 'https://example.org/blog/', description: 'All the news'});
  });

  it('entry: text title kept literally, link by xml:base, the feed author inherited, xhtml content unwrapped, text summary escaped, the enclosure link resolved', () => {
    expect(feed.items[0]).toEqual({
      guid: 'urn:uuid:1',
      title: 'A <tag> in text',
      link: 'https://example.org/blog/2024/post',
      author: 'Feed Author',
      published: '2024-05-01T08:00:00.000Z',
      updated: '2024-05-02T10:00:00.000Z',
      summary: '1 &lt; 2',
      content: '<p>Hi <b xmlns:xhtml="http://www.w3.org/1999/xhtml">there</b></p>',
      categories: ['js'],
      enclosures: [{url: 'https://example.org/audio.mp3'}],
    });
  });

  it("entry: nested xml:base, its own author, media:group's description (YouTube), out-of-line content ignored", () => {
    expect(feed.items[1]).toMatchObject({link: 'https://example.org/other/watch', author: 'Own Author', summary: 'Plain text &amp; more'});
    expect(feed.items[1].content).toBeUndefined();
  });

  it('Atom 0.3 without a namespace: mode="escaped", issued and modified', () => {
    const old = parseFeed(
      '<feed version="0.3"><title>Old</title><link rel="alternate" href="http://old.example/"/><entry><title mode="escaped">&lt;b&gt;Hi&lt;/b&gt;</title><issued>2003-12-31T10:14:55Z</issued><modified>2004-01-01T00:00:00Z</modified><content type="text/html" mode="escaped">&lt;p&gt;x&lt;/p&gt;</content></entry></feed>',
    );
    expect(old).toMatchObject({version: 'Atom 0.3', title: 'Old', link: 'http://old.example/'});
    expect(old.items[0]).toMatchObject({title: 'Hi', published: '2003-12-31T10:14:55.000Z', updated: '2004-01-01T00:00:00.000Z', content: '<p>x</p>'});
  });
});

describe('RSS 1.0 (RDF)', () => {
  it('items beside the channel, rdf:about as the id, dc:date as the date', () => {
    const feed = parseFeed(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <channel rdf:about="http://rdf.example/"><title>RDF</title><link>http://rdf.example/</link><description>d</description></channel>
      <item rdf:about="http://rdf.example/1"><title>One</title><link>http://rdf.example/1</link><dc:date>2004-01-01T00:00:00Z</dc:date><dc:subject>misc</dc:subject></item>
    </rdf:RDF>`);
    expect(feed).toMatchObject({format: 'rdf', version: 'RSS 1.0', title: 'RDF', link: 'http://rdf.example/'});
    expect(feed.items).toEqual([{guid: 'http://rdf.example/1', title: 'One', link: 'http://rdf.example/1', published: '2004-01-01T00:00:00.000Z', categories: ['misc']}]);
  });
});
