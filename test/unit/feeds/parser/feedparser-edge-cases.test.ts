import {describe, expect, it} from 'vitest';
import {parseFeed} from '../../../../source/feeds/parser/index.js';

// Edge cases of real feeds, each on a small feed of its own. The expected values are what python
// feedparser 6 gives for the same feed, carried over to our field model (summary and content are
// HTML; an empty value is no field).

const CONTENT_NS = 'xmlns:content="http://purl.org/rss/1.0/modules/content/"';
const rss = (items: string, ns = '') => `<?xml version="1.0"?><rss version="2.0" ${ns}><channel><title>T</title>${items}</channel></rss>`;
const atom = (entries: string) => `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>${entries}</feed>`;

describe('summary and content', () => {
  it('of <description> and <summary>, the first in document order is the summary and the second the content', () => {
    const feed = parseFeed(
      rss(
        '<item><title>a</title><description>Example description</description><summary>Example summary</summary></item>' +
          '<item><title>b</title><summary>Example summary</summary><description>Example description</description></item>',
      ),
    );
    expect(feed.items[0]).toMatchObject({summary: 'Example description', content: 'Example summary'});
    expect(feed.items[1]).toMatchObject({summary: 'Example summary', content: 'Example description'});
  });

  it('content:encoded stays the content whichever comes first; the description is the summary', () => {
    const feed = parseFeed(
      rss(
        '<item><title>a</title><description>short</description><content:encoded><![CDATA[<p>full</p>]]></content:encoded></item>' +
          '<item><title>b</title><content:encoded><![CDATA[<p>full</p>]]></content:encoded><description>short</description></item>',
        CONTENT_NS,
      ),
    );
    for (const item of feed.items) expect(item).toMatchObject({summary: 'short', content: '<p>full</p>'});
  });

  it('an RSS <summary> that does not look like HTML is text (escaped); one that does is HTML', () => {
    const feed = parseFeed(rss('<item><title>a</title><summary>a &lt; b &amp; c</summary></item><item><title>b</title><summary>&lt;p&gt;Hi&lt;/p&gt;</summary></item>'));
    expect(feed.items[0].summary).toBe('a &lt; b &amp; c');
    expect(feed.items[1].summary).toBe('<p>Hi</p>');
  });

  it('<description/> yields no field, and holds the summary place: a later <itunes:summary> is the content', () => {
    const feed = parseFeed(
      rss(
        '<item><title>a</title><description/></item><item><title>b</title><description></description><content:encoded>full</content:encoded></item>' +
          '<item><title>c</title><description/><itunes:summary>podcast text</itunes:summary></item>',
        `${CONTENT_NS} xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"`,
      ),
    );
    expect(feed.items[0]).toEqual({title: 'a', categories: []});
    expect(feed.items[1]).toEqual({title: 'b', categories: [], content: 'full'});
    expect(feed.items[2]).toEqual({title: 'c', categories: [], content: 'podcast text'});
    expect(parseFeed(atom('<entry><id>1</id><title>e</title><summary/><content type="html"> </content></entry>')).items[0]).toEqual({title: 'e', guid: '1', categories: []});
  });
});

describe('Atom text constructs', () => {
  const entries = parseFeed(
    atom(
      '<entry><id>1</id><title>x</title><summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Hi <b>there</b></p></div></summary></entry>' +
        '<entry><id>2</id><title>x</title><summary type="html"><div>&lt;b&gt;escaped inside&lt;/b&gt;</div></summary></entry>' +
        '<entry><id>3</id><title>x</title><summary type="text">a &lt;b&gt; tag &amp; more</summary></entry>' +
        '<entry><id>4</id><title>x</title><summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">&lt;b&gt;text in xhtml&lt;/b&gt;</div></summary></entry>',
    ),
  ).items;

  it("XHTML's wrapping <div> is not part of the summary", () => {
    expect(entries[0].summary).toBe('<p>Hi <b>there</b></p>');
  });

  it('escaped markup in a <div> of type="html" is the HTML itself (the div dropped)', () => {
    expect(entries[1].summary).toBe('<b>escaped inside</b>');
  });

  it('type="text" is text: kept escaped as HTML, so it shows as written; escaped text in XHTML stays text too', () => {
    expect(entries[2].summary).toBe('a &lt;b&gt; tag &amp; more');
    expect(entries[3].summary).toBe('&lt;b&gt;text in xhtml&lt;/b&gt;');
  });

  it("atom:summary and atom:content in an RSS item are read as Atom's (the div dropped)", () => {
    const item = parseFeed(
      rss(
        '<item><title>r</title><atom:summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>s</p></div></atom:summary><atom:content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>c</p></div></atom:content></item>',
        'xmlns:atom="http://www.w3.org/2005/Atom"',
      ),
    ).items[0];
    expect(item).toMatchObject({summary: '<p>s</p>', content: '<p>c</p>'});
  });
});

describe('links, categories and dates', () => {
  it('an Atom <link> that gives its URL as text is the link; an href beats it', () => {
    const feed = parseFeed(
      atom(
        '<link>https://example.com/site</link><entry><id>1</id><title>a</title><link>https://example.com/e1</link></entry>' +
          '<entry><id>2</id><title>b</title><link href="https://example.com/e2"/><link>https://example.com/other</link></entry><entry><id>3</id><title>c</title><link>e3</link></entry>',
      ),
    );
    expect(feed.link).toBe('https://example.com/site');
    expect(feed.items.map((item) => item.link)).toEqual(['https://example.com/e1', 'https://example.com/e2', 'https://example.com/e3']);
  });

  it('a made-up comma-separated <tags> and dc:subject are categories, beside <category>', () => {
    const item = parseFeed(
      rss('<item><title>a</title><tags>tag one, tag two ,,</tags><category>c</category><dc:subject>subj</dc:subject></item>', 'xmlns:dc="http://purl.org/dc/elements/1.1/"'),
    ).items[0];
    expect(item.categories).toEqual(['tag one', 'tag two', 'c', 'subj']);
    expect(parseFeed(atom('<entry xmlns:dc="http://purl.org/dc/elements/1.1/"><id>1</id><title>a</title><dc:subject>subj</dc:subject></entry>')).items[0].categories).toEqual([
      'subj',
    ]);
  });

  it('of two <updated> (or <published>, <pubDate>), the last one counts', () => {
    const entry = parseFeed(
      atom(
        '<entry><id>1</id><title>a</title><updated>2010-12-01T10:14:55Z</updated><updated>2003-12-31T10:14:55Z</updated><published>2001-01-01T00:00:00Z</published><published>2002-02-02T00:00:00Z</published></entry>',
      ),
    ).items[0];
    expect(entry).toMatchObject({updated: '2003-12-31T10:14:55.000Z', published: '2002-02-02T00:00:00.000Z'});
    const item = parseFeed(rss('<item><title>a</title><pubDate>Mon, 01 Jan 2024 00:00:00 GMT</pubDate><pubDate>Tue, 02 Jan 2024 00:00:00 GMT</pubDate><pubDate/></item>')).items[0];
    expect(item.published).toBe('2024-01-02T00:00:00.000Z');
  });
});

describe('titles', () => {
  it('a title that is only markup is named by the entry instead of left empty', () => {
    const feed = parseFeed(
      atom(
        '<entry><id>1</id><title type="html">&lt;img src="x.png"&gt;</title><link href="https://example.com/1"/></entry><entry><id>2</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><br/></div></title><summary>The words of it</summary></entry>',
      ),
    );
    expect(feed.items.map((item) => item.title)).toEqual(['https://example.com/1', 'The words of it']);
  });
});

describe('entities declared in the DOCTYPE', () => {
  const doctype = `<!DOCTYPE rss [
<!ENTITY id "tag:example.com,">
<!ENTITY co 'Internal Co'>
<!ENTITY nbsp "&#160;">
<!ENTITY nest "&id; again">
<!ENTITY amp "not XML's">
<!-- <!ENTITY hidden "commented out"> -->
]>`;

  it('plain-text values and single character references are expanded, in text, attributes and markup', () => {
    const feed = parseFeed(
      `${doctype}<rss version="2.0"><channel><title>Feed of &co;</title><item><title>Hello&nbsp;&co; &amp; more</title><guid isPermaLink="false">&id;2006-05-04:/blog/</guid><link>https://example.com/?q=&co;</link><description><p>About &co;</p></description></item><item><title>x</title><enclosure url="https://e.com/a" type="&co;"/><description>&lt;b&gt;&co;&lt;/b&gt;</description></item></channel></rss>`,
    );
    expect(feed.title).toBe('Feed of Internal Co');
    expect(feed.items[0]).toMatchObject({title: 'Hello\u00a0Internal Co & more', guid: 'tag:example.com,2006-05-04:/blog/', summary: '<p>About Internal Co</p>'});
    expect(feed.items[1].summary).toBe('<b>Internal Co</b>');
  });

  it('an entity that refers to another, a redeclared XML entity, a commented-out or undeclared one stay as written', () => {
    const feed = parseFeed(`${doctype}<rss><channel><title>&nest; &hidden; &nope;</title></channel></rss>`);
    expect(feed.title).toBe('&nest; &hidden; &nope;');
  });

  it('a DOCTYPE after the root, or a second one, declares nothing', () => {
    expect(parseFeed(`<rss><channel><title>&co;</title></channel></rss>`.replace('<channel>', `${doctype}<channel>`)).title).toBe('&co;');
    expect(parseFeed(`${doctype}<!DOCTYPE rss><rss><channel><title>&co;</title></channel></rss>`).title).toBe('&co;');
  });
});
