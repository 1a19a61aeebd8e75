// Enclosures and categories as the renderer publishes them, whoever built the item (an origin's
// copy read back from the store, the GraphQL surface): garbage in the fields is dropped, never
// written, and the content version follows every field.
import {describe, expect, it} from 'vitest';
import {MAX_ENCLOSURES, parseFeed} from '../../../source/feeds/parser/index.js';
import {documentVersion, renderFeed} from '../../../source/gateway/render/index.js';
import type {FeedDocument, FeedItem} from '../../../source/gateway/types.js';
import {wellFormedXml} from '../../helpers/well-formed-xml.js';

const links = {baseUrl: 'http://127.0.0.1:7701'};

function doc(items: FeedItem[]): FeedDocument {
  const content: Omit<FeedDocument, 'version'> = {
    kind: 'proxied',
    name: 'news',
    title: 'News',
    description: null,
    siteUrl: null,
    items,
    updatedAt: 0,
    maxAgeSeconds: 600,
    stale: false,
  };
  return {...content, version: documentVersion(content)};
}

const base: FeedItem = {id: 'https://example.com/1', title: 'One', link: 'https://example.com/1', description: '<p>x</p>', author: null, published: 0};

function both(item: FeedItem) {
  return (['rss', 'atom'] as const).map((format) => {
    const rendered = renderFeed(doc([item]), format, links);
    const text = rendered.body.toString('utf8');
    expect(wellFormedXml(text)).toBe(true);
    return {text, item: parseFeed(text, rendered.contentType).items[0]!};
  });
}

describe('enclosures of an item built elsewhere', () => {
  it('drops non-http(s) URLs, bad types, lengths and durations, and repeats; keeps the rest', () => {
    const garbage = [
      {url: 'javascript:alert(1)', type: 'audio/mpeg'},
      {url: '/relative.mp3'},
      {url: 42},
      null,
      {url: 'https://cdn.example/a.mp3', type: 'audio/mpeg" onload="x', length: -1, durationSeconds: 1.5},
      {url: 'https://cdn.example/a.mp3', type: 'audio/ogg', length: 5},
      {url: 'https://cdn.example/b.mp3', type: 'audio/mpeg', length: Number.NaN, durationSeconds: '60'},
      {url: 'https://cdn.example/c.mp3', type: 'audio/mpeg', length: 2 ** 53},
    ] as unknown as FeedItem['enclosures'];
    for (const {text, item} of both({...base, enclosures: garbage})) {
      expect(text).not.toContain('javascript:');
      expect(text).not.toContain('onload');
      expect(item.enclosures).toEqual([
        {url: 'https://cdn.example/a.mp3'},
        {url: 'https://cdn.example/b.mp3', type: 'audio/mpeg'},
        {url: 'https://cdn.example/c.mp3', type: 'audio/mpeg'},
      ]);
    }
  });

  it('publishes at most MAX_ENCLOSURES of 10,000', () => {
    const enclosures = Array.from({length: 10_000}, (_, i) => ({url: `https://cdn.example/${i}.mp3`}));
    for (const {item} of both({...base, enclosures})) expect(item.enclosures).toHaveLength(MAX_ENCLOSURES);
  });

  it('a field that is not a list publishes nothing', () => {
    for (const {text, item} of both({...base, enclosures: 'https://cdn.example/a.mp3', categories: 'news'} as unknown as FeedItem)) {
      expect(item.enclosures).toBeUndefined();
      expect(item.categories).toEqual([]);
      expect(text).not.toContain('cdn.example');
    }
  });
});

describe('categories of an item built elsewhere', () => {
  it('one line of XML-safe text each, no empty or repeated name, at most 50', () => {
    const categories = ['a\u0001b', '  spaced\n\tout  ', '', 'spaced out', 7, ...Array.from({length: 100}, (_, i) => `c${i}`)] as unknown as string[];
    for (const {item} of both({...base, categories})) {
      expect(item.categories.slice(0, 3)).toEqual(['ab', 'spaced out', 'c0']);
      expect(item.categories).toHaveLength(50);
    }
  });
});

describe('the content version', () => {
  it('changes with an enclosure’s URL, type, length or duration, and with the categories', () => {
    const enclosure = {url: 'https://cdn.example/a.mp3', type: 'audio/mpeg', length: 1, durationSeconds: 1};
    const versions = [
      {...base},
      {...base, enclosures: [enclosure]},
      {...base, enclosures: [{...enclosure, url: 'https://cdn.example/b.mp3'}]},
      {...base, enclosures: [{...enclosure, type: 'audio/ogg'}]},
      {...base, enclosures: [{...enclosure, length: 2}]},
      {...base, enclosures: [{...enclosure, durationSeconds: 2}]},
      {...base, categories: ['a']},
      {...base, categories: ['b']},
    ].map((item) => doc([item]).version);
    expect(new Set(versions).size).toBe(versions.length);
    expect(doc([{...base, categories: ['a']}]).version).toBe(versions[6]);
  });
});

describe('the landing page', () => {
  it('links each file with its type and size and lists the categories, escaped; javascript: never', () => {
    const item: FeedItem = {
      ...base,
      enclosures: [{url: 'https://cdn.example/ep.mp3?a=1&b=2', type: 'audio/mpeg', length: 12_216_320}, {url: 'javascript:alert(1)'}, {url: 'https://cdn.example/notes.pdf'}],
      categories: ['a < b', '<script>x</script>'],
    };
    const page = renderFeed(doc([item]), 'html', links).body.toString();
    expect(page).toContain('Files: <a href="https://cdn.example/ep.mp3?a=1&amp;b=2">audio/mpeg, 12 MB</a> · <a href="https://cdn.example/notes.pdf">file</a>');
    expect(page).toContain('Categories: a &lt; b, &lt;script&gt;x&lt;/script&gt;');
    expect(page).not.toContain('javascript:');
    expect(page).not.toContain('<script>');
  });

  it('says nothing of files or categories for an item without them', () => {
    const page = renderFeed(doc([base]), 'html', links).body.toString();
    expect(page).not.toContain('Files:');
    expect(page).not.toContain('Categories:');
  });
});
