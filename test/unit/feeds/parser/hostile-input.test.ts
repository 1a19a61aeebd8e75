import {describe, expect, it} from 'vitest';
import {articleKey, parseFeed} from '../../../../source/feeds/parser/index.js';
import {EXPANSION_BUDGET} from '../../../../source/feeds/parser/internal-entities.js';

function notAFeed(body: Buffer | string, contentType?: string): string {
  try {
    parseFeed(body, contentType);
  } catch (error) {
    expect((error as {code?: string}).code).toBe('not_a_feed');
    return (error as Error).message;
  }
  throw new Error('parsed');
}

function heapGrowthMb(run: () => void): number {
  const before = process.memoryUsage().heapUsed;
  run();
  return (process.memoryUsage().heapUsed - before) / 1e6;
}

describe('entity expansion (XML bombs)', () => {
  it('billion laughs: entities that refer to entities are left unexpanded, memory stays flat', () => {
    const levels = ['<!ENTITY lol "lol">'];
    for (let i = 1; i <= 9; i++) levels.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE rss [\n${levels.join('\n')}\n]>\n<rss version="2.0"><channel><title>&lol9;</title><item><title>t</title><description>&lol9;&lol9;</description></item></channel></rss>`;
    let feed: ReturnType<typeof parseFeed> | undefined;
    const growth = heapGrowthMb(() => {
      feed = parseFeed(Buffer.from(bomb));
    });
    expect(feed!.title).toBe('&lol9;');
    expect(feed!.items[0].summary).toBe('&lol9;&lol9;');
    // Expanded, &lol9; alone is 10^9 characters.
    expect(growth).toBeLessThan(64);
  });

  it('a large entity referenced many times (quadratic blow-up) expands only up to the budget; the rest stays as written', () => {
    const bomb = `<!DOCTYPE rss [<!ENTITY big "${'x'.repeat(100_000)}">]><rss><channel><title>${'&big;'.repeat(10_000)}</title><item><title>t</title><description>${'&big;'.repeat(10_000)}</description></item></channel></rss>`;
    let feed: ReturnType<typeof parseFeed> | undefined;
    const growth = heapGrowthMb(() => {
      feed = parseFeed(bomb);
    });
    // Expanded in full, each is 10^9 characters.
    const expanded = EXPANSION_BUDGET / 100_000;
    expect(feed!.title).toBe('x'.repeat(EXPANSION_BUDGET) + '&big;'.repeat(10_000 - expanded));
    expect(feed!.items[0].summary).toBe('&big;'.repeat(10_000));
    expect(growth).toBeLessThan(64);
  });

  it('a million tiny references cost no more than the budget', () => {
    const feed = parseFeed(`<!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa">]><rss><channel><title>${'&a;'.repeat(1_000_000)}</title></channel></rss>`);
    expect(feed.title.length).toBe(EXPANSION_BUDGET + 3 * (1_000_000 - EXPANSION_BUDGET / 10));
  });

  it('external entities are never fetched or read', () => {
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY % remote SYSTEM "http://127.0.0.1:9/x.dtd"> %remote;]><rss><channel><title>&xxe;</title></channel></rss>';
    expect(parseFeed(xxe).title).toBe('&xxe;');
  });

  it('a DOCTYPE whose internal subset holds quotes, brackets and comments is skipped whole', () => {
    const feed = parseFeed('<!DOCTYPE rss [<!-- don\'t [ > --><!ENTITY a "]>"><!ATTLIST x y CDATA "\'">]><rss><channel><title>ok</title></channel></rss>');
    expect(feed.title).toBe('ok');
  });
});

describe('size and garbage', () => {
  it('a feed with 10,000 items parses, every item with its own identity', () => {
    const items = Array.from(
      {length: 10_000},
      (_, i) => `<item><title>Item ${i}</title><link>https://example.com/${i}</link><guid>id-${i}</guid><pubDate>Mon, 01 Jan 2024 00:00:00 GMT</pubDate></item>`,
    );
    const feed = parseFeed(Buffer.from(`<?xml version="1.0"?><rss version="2.0"><channel><title>Big</title>${items.join('')}</channel></rss>`));
    expect(feed.items).toHaveLength(10_000);
    expect(feed.items[9_999]).toMatchObject({title: 'Item 9999', link: 'https://example.com/9999', guid: 'id-9999'});
    expect(new Set(feed.items.map(articleKey)).size).toBe(10_000);
  });

  it('10 MB of random bytes is not a feed', () => {
    let state = 42;
    const noise = Buffer.alloc(10 * 1024 * 1024);
    for (let i = 0; i < noise.length; i++) {
      state = (state * 1103515245 + 12345) >>> 0;
      noise[i] = state >>> 24;
    }
    expect(notAFeed(noise)).toMatch(/^not a feed: /);
  });

  it('10 MB of unclosed tags is not a feed (and takes no quadratic path)', () => {
    expect(notAFeed('<a<b<c '.repeat(1_500_000))).toMatch(/not a feed: the root element is <a<b<c>/);
  });

  it('deep nesting and floods of stray end tags inside a feed do not overflow anything', () => {
    const deep = `<rss><channel><title>deep</title><item><title>x</title><description>${'<div>'.repeat(100_000)}text</description></item></channel></rss>`;
    expect(parseFeed(deep).items).toHaveLength(1);
    const stray = `<rss><channel><title>stray</title>${'</p>'.repeat(200_000)}<item><title>y</title></item></channel></rss>`;
    expect(parseFeed(stray).items[0].title).toBe('y');
  });
});

describe('what is not a feed', () => {
  it('an HTML page', () => {
    expect(notAFeed('<!DOCTYPE html><html><head><link rel="alternate" type="application/rss+xml" href="/feed"></head><body>hi</body></html>')).toBe('not a feed: an HTML page');
  });

  it('an empty or blank body', () => {
    expect(notAFeed(Buffer.alloc(0))).toBe('not a feed: the document is empty');
    expect(notAFeed(' \n\ufeff ')).toBe('not a feed: the document is empty');
  });

  it('XML of another kind, plain text, JSON that is not a JSON Feed', () => {
    expect(notAFeed('<?xml version="1.0"?><note><to>x</to></note>')).toMatch(/root element is <note>/);
    expect(notAFeed('just some text')).toBe('not a feed: neither XML nor JSON');
    expect(notAFeed('{"name": "package", "version": "1.0.0"}')).toMatch(/JSON without a JSON Feed/);
    expect(notAFeed('{"title": ')).toMatch(/^not a feed: invalid JSON/);
    expect(notAFeed('[1, 2]', 'application/json')).toMatch(/not a feed/);
  });
});

describe('what real feeds get wrong, forgiven', () => {
  it('junk before the prolog: whitespace, a BOM, a PHP warning', () => {
    expect(parseFeed('\n\n  \ufeff<?xml version="1.0"?><rss><channel><title>ws</title></channel></rss>').title).toBe('ws');
    const php =
      '<br />\n<b>Warning</b>:  Cannot modify header information in <b>/var/www/feed.php</b> on line <b>3</b><br />\n<?xml version="1.0"?><rss version="2.0"><channel><title>after junk</title></channel></rss>';
    expect(parseFeed(php).title).toBe('after junk');
  });

  it('HTML entities undefined in XML, and bare ampersands', () => {
    const feed = parseFeed('<rss><channel><title>Caf&eacute; &amp; Bar&nbsp;&mdash; R&D</title><link>http://x.test/?a=1&b=2</link></channel></rss>');
    expect(feed.title).toBe('Café & Bar\u00a0— R&D');
    expect(feed.link).toBe('http://x.test/?a=1&b=2');
  });

  it('a truncated document keeps the items read so far', () => {
    const full = '<rss><channel><title>T</title><item><title>one</title></item><item><title>two</title></item><item><title>thr';
    expect(parseFeed(full).items.map((item) => item.title)).toEqual(['one', 'two', 'thr']);
    expect(parseFeed('<rss><channel><title>cut in a CDATA</title><item><title><![CDATA[half').items[0].title).toBe('half');
  });

  it('unclosed and mismatched tags close at the nearest matching ancestor', () => {
    const feed = parseFeed('<rss><channel><item><title>A</title><description><p>one<br>two</description><link>http://x.test/a</link></item><item><title>B</title></channel></rss>');
    expect(feed.items.map((item) => [item.title, item.link])).toEqual([
      ['A', 'http://x.test/a'],
      ['B', undefined],
    ]);
    expect(feed.items[0].summary).toBe('<p>one<br>two');
  });

  it('a "<" that starts no tag is text', () => {
    expect(parseFeed('<rss><channel><title>1 < 2 and 3 <= 4</title></channel></rss>').title).toBe('1 < 2 and 3 <= 4');
  });
});
