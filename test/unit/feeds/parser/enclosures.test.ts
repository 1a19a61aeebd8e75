import {describe, expect, it} from 'vitest';
import {MAX_ENCLOSURES, durationSeconds} from '../../../../source/feeds/parser/enclosures.js';
import {describeEnclosure} from '../../../../source/feeds/enclosure-text.js';
import {parseFeed} from '../../../../source/feeds/parser/index.js';

const rss = (item: string, namespaces = '') =>
  parseFeed(
    `<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"${namespaces}><channel><title>Pod</title><link>https://pod.example/show/</link><item><title>Episode</title>${item}</item></channel></rss>`,
    'https://feeds.example/pod.xml',
  ).items[0]!;

describe('enclosures', () => {
  it('RSS <enclosure> with type, length and the episode iTunes duration', () => {
    const item = rss('<enclosure url="https://cdn.example/ep1.mp3" type="Audio/MPEG" length="12216320"/><itunes:duration>1:02:03</itunes:duration>');
    expect(item.enclosures).toEqual([{url: 'https://cdn.example/ep1.mp3', type: 'audio/mpeg', length: 12_216_320, durationSeconds: 3723}]);
    expect(item.enclosuresOmitted).toBeUndefined();
  });

  it('a 2 GB length is kept whole; 0, negative, fractional and absurd lengths are no length', () => {
    const item = rss(
      ['2147483648', '0', '-5', '12.5', '99999999999999999999', 'big']
        .map((length, index) => `<enclosure url="https://cdn.example/${index}.mp4" type="video/mp4" length="${length}"/>`)
        .join(''),
    );
    expect(item.enclosures!.map((enclosure) => enclosure.length)).toEqual([2_147_483_648, undefined, undefined, undefined, undefined, undefined]);
  });

  it('relative URLs resolve against the item; javascript:, data:, ftp: and unparsable ones are refused', () => {
    const item = rss(
      '<enclosure url="../media/ep.mp3" type="audio/mpeg"/><enclosure url="javascript:alert(1)" type="audio/mpeg"/><enclosure url="data:audio/mpeg;base64,AAAA"/><enclosure url="ftp://files.example/ep.mp3"/><enclosure url="http://[bad"/><enclosure url=""/><enclosure/>',
    );
    expect(item.enclosures).toEqual([{url: 'https://pod.example/media/ep.mp3', type: 'audio/mpeg'}]);
  });

  it('Atom rel="enclosure" links, relative to xml:base; other links are not enclosures', () => {
    const feed = parseFeed(
      `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/"><title>Blog</title><entry><id>1</id><title>Talk</title><link href="/talk"/><link rel="ENCLOSURE" href="talk.webm" type="video/webm" length="4096"/><link rel="related" href="/other.mp3" type="audio/mpeg"/></entry></feed>`,
    );
    expect(feed.items[0]!.enclosures).toEqual([{url: 'https://blog.example/talk.webm', type: 'video/webm', length: 4096}]);
  });

  it('Media RSS: media:content direct and in media:group, fileSize and duration, one per URL', () => {
    const item = rss(
      '<enclosure url="https://cdn.example/a.mp4" type="video/mp4"/><media:content url="https://cdn.example/a.mp4" fileSize="2048" duration="61"/><media:group><media:content url="https://cdn.example/b.webm" type="video/webm" duration="59.6"/><media:thumbnail url="https://cdn.example/b.jpg"/></media:group>',
    );
    expect(item.enclosures).toEqual([
      {url: 'https://cdn.example/a.mp4', type: 'video/mp4', length: 2048, durationSeconds: 61},
      {url: 'https://cdn.example/b.webm', type: 'video/webm', durationSeconds: 60},
    ]);
  });

  it('YouTube-style Atom: media:group inside the entry', () => {
    const feed = parseFeed(
      `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"><title>Channel</title><entry><id>yt:video:1</id><title>Video</title><link rel="alternate" href="https://www.youtube.com/watch?v=1"/><media:group><media:title>Video</media:title><media:content url="https://www.youtube.com/v/1?version=3" type="application/x-shockwave-flash" width="640" height="390"/></media:group></entry></feed>`,
    );
    expect(feed.items[0]!.enclosures).toEqual([{url: 'https://www.youtube.com/v/1?version=3', type: 'application/x-shockwave-flash'}]);
  });

  it('a type that is not a MIME type is left out; the enclosure is kept', () => {
    expect(rss('<enclosure url="https://cdn.example/x" type="&lt;script&gt;"/>').enclosures).toEqual([{url: 'https://cdn.example/x'}]);
  });

  it(`10,000 enclosures in one item: the first ${MAX_ENCLOSURES} kept, the rest counted`, () => {
    const many = Array.from({length: 10_000}, (_, index) => `<enclosure url="https://cdn.example/${index}.mp3" type="audio/mpeg"/>`).join('');
    const item = rss(many);
    expect(item.enclosures).toHaveLength(MAX_ENCLOSURES);
    expect(item.enclosures![MAX_ENCLOSURES - 1]!.url).toBe(`https://cdn.example/${MAX_ENCLOSURES - 1}.mp3`);
    expect(item.enclosuresOmitted).toBe(10_000 - MAX_ENCLOSURES);
  });

  it('an item without media has no enclosures field', () => {
    expect(rss('<description>text</description>')).not.toHaveProperty('enclosures');
  });

  it('JSON Feed attachments follow the same rules', () => {
    const feed = parseFeed(
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: 'J',
        home_page_url: 'https://j.example/',
        items: [
          {
            id: '1',
            content_text: 'x',
            attachments: [
              {url: '/ep.m4a', mime_type: 'audio/x-m4a', size_in_bytes: 2_147_483_648, duration_in_seconds: 1800},
              {url: 'javascript:alert(1)', mime_type: 'audio/mpeg'},
            ],
          },
        ],
      }),
    );
    expect(feed.items[0]!.enclosures).toEqual([{url: 'https://j.example/ep.m4a', type: 'audio/x-m4a', length: 2_147_483_648, durationSeconds: 1800}]);
  });

  it.each([
    ['3723', 3723],
    ['62:03', 3723],
    ['1:02:03', 3723],
    ['00:00:00', undefined],
    ['1:02:03:04', undefined],
    ['an hour', undefined],
    ['', undefined],
  ])('duration %j is %j seconds', (text, seconds) => {
    expect(durationSeconds(text)).toBe(seconds);
  });
});

describe('an enclosure in words', () => {
  it.each([
    [{url: 'https://e.example/a.mp3'}, 'https://e.example/a.mp3'],
    [{url: 'https://e.example/a.mp3', type: 'audio/mpeg', length: 999, durationSeconds: 59}, 'https://e.example/a.mp3 (audio/mpeg, 999 B, 0:59)'],
    [{url: 'https://e.example/a.mp4', length: 2_147_483_648, durationSeconds: 3723}, 'https://e.example/a.mp4 (2.1 GB, 1:02:03)'],
    [{url: 'https://e.example/a.mp4', length: 12_216_320}, 'https://e.example/a.mp4 (12 MB)'],
  ])('%j', (enclosure, words) => {
    expect(describeEnclosure(enclosure)).toBe(words);
  });
});
