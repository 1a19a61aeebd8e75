import {readFileSync} from 'node:fs';
import path from 'node:path';
import {isDeepStrictEqual} from 'node:util';
import {describe, expect, it} from 'vitest';
import {parseFeed} from '../../../../source/feeds/parser/index.js';
import type {ParsedFeed} from '../../../../source/feeds/types.js';
import {CORPUS, corpusFiles, feedparserContentType, feedparserUrl} from './corpus.js';
import {readAnnotation} from './feedparser-expect.js';
import {mapComparison} from './feedparser-mapping.js';

// Where we knowingly part from feedparser, and why. Every other comparison we model must hold.
const KNOWN_DIVERGENCES: Record<string, string> = {
  'feedparser/entities/lang.xml': "&lang; is HTML 5's U+27E8 (feedparser keeps HTML 4's U+2329)",
  'feedparser/entities/rang.xml': "&rang; is HTML 5's U+27E9 (feedparser keeps HTML 4's U+232A)",
  'feedparser/encoding/bozo_linenoise.xml': 'deliberately broken bytes: mostly valid UTF-8 stays UTF-8 (feedparser rereads it all as windows-1252)',
  'feedparser/wellformed/base/http_entry_id_base_content_location.xml': 'ids are identity: a relative id is not resolved (a moved feed would change every id)',
  'feedparser/wellformed/base/http_entry_id_base_docuri.xml': 'ids are identity: a relative id is not resolved',
};

function parseLikeFeedparser(rel: string): {feed?: ParsedFeed; text: string} {
  const bytes = readFileSync(path.join(CORPUS, rel));
  const text = bytes.toString('utf8');
  try {
    return {feed: parseFeed(bytes, feedparserContentType(text), {url: feedparserUrl(rel, text)}), text};
  } catch {
    return {text};
  }
}

describe("feedparser's Expect lines", () => {
  it('hold for every field we model, apart from the known divergences', () => {
    let checked = 0;
    const failures: string[] = [];
    for (const rel of corpusFiles('feedparser')) {
      // feedparser sanitises HTML; we store it as the feed sent it (the renderer cleans it).
      if (rel.includes(`${path.sep}sanitize${path.sep}`)) continue;
      const {feed, text} = parseLikeFeedparser(rel);
      const annotation = readAnnotation(text);
      if (!annotation || !feed) continue;
      for (const comparison of annotation.comparisons) {
        const mapped = mapComparison(feed, comparison);
        if (!mapped) continue;
        checked++;
        if (isDeepStrictEqual(mapped.actual, mapped.expected)) continue;
        if (rel.split(path.sep).join('/') in KNOWN_DIVERGENCES) continue;
        failures.push(`${rel}: ${comparison.source} → ${JSON.stringify(mapped.actual)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(550);
  });

  it('the known divergences still diverge (drop them from the list when they stop)', () => {
    for (const rel of Object.keys(KNOWN_DIVERGENCES)) {
      const {feed, text} = parseLikeFeedparser(rel);
      const annotation = readAnnotation(text)!;
      const agrees = annotation.comparisons.every((comparison) => {
        const mapped = mapComparison(feed!, comparison);
        return !mapped || isDeepStrictEqual(mapped.actual, mapped.expected);
      });
      expect(agrees, rel).toBe(false);
    }
  });
});

// A selection of the annotations, written out: what a reader shows for each.
describe('feedparser test feeds, field by field', () => {
  const read = (rel: string) => {
    const {feed} = parseLikeFeedparser(`feedparser/${rel}`);
    if (!feed) throw new Error(`${rel} did not parse`);
    return feed;
  };

  it('enclosures: RSS, several in one item, and Atom rel="enclosure"', () => {
    expect(read('wellformed/rss/item_enclosure_multiple.xml').items[0].enclosures).toEqual([
      {url: 'http://example.com/1', type: 'image/jpeg', length: 100000},
      {url: 'http://example.com/2', type: 'image/gif', length: 200000},
    ]);
    expect(read('wellformed/atom10/entry_link_rel_enclosure_map_enclosure_length.xml').items[0].enclosures).toEqual([
      {url: 'http://www.example.com/movie.mp4', type: 'video/mpeg4', length: 42301},
    ]);
  });

  it('RSS 2.0 channel and item fields', () => {
    expect(read('wellformed/rss/channel_title.xml').title).toBe('Example feed');
    expect(read('wellformed/rss/channel_link.xml').link).toBe('http://example.com/');
    expect(read('wellformed/rss/channel_description.xml').description).toBe('Example description');
    expect(read('wellformed/rss/item_guid.xml').items[0].guid).toBe('http://guid.example.com/');
    expect(read('wellformed/rss/item_link.xml').items[0].link).toBe('http://example.com/');
    expect(read('wellformed/rss/item_author.xml').items[0].author).toBe('Example editor');
    expect(read('wellformed/rss/item_category.xml').items[0].categories).toEqual(['Example category']);
    expect(read('wellformed/rss/item_pubDate.xml').items[0].published).toBe('2004-01-01T19:48:21.000Z');
    expect(read('wellformed/rss/item_content_encoded.xml').items[0].content).toBe('<p>Example content</p>');
  });

  it('a permalink guid is the link when there is no <link>', () => {
    const item = read('wellformed/rss/item_guid_guidislink.xml').items[0];
    expect(item.guid).toBe('http://guid.example.com/');
    expect(item.link).toBe('http://guid.example.com/');
    expect(read('wellformed/rss/item_guid_not_permalink.xml').items[0].link).toBeUndefined();
  });

  it('Dublin Core stands in for the RSS elements', () => {
    expect(read('wellformed/rss/item_dc_creator.xml').items[0].author).toBe('Example editor');
    expect(read('wellformed/rss/item_dc_date.xml').items[0].published).toBe('2003-12-31T10:14:55.000Z');
    expect(read('wellformed/rss/item_dc_subject.xml').items[0].categories).toEqual(['Example category']);
  });

  it('RSS versions, RDF and CDF', () => {
    expect(read('wellformed/rss/rss_version_090.xml')).toMatchObject({format: 'rdf', version: 'RSS 0.90'});
    expect(read('wellformed/rss/rss_version_091_netscape.xml').version).toBe('RSS 0.91');
    expect(read('wellformed/rss/rss_version_201.xml').version).toBe('RSS 2.0');
    expect(read('wellformed/rdf/rss_version_10.xml')).toMatchObject({format: 'rdf', version: 'RSS 1.0'});
    expect(read('wellformed/rdf/rdf_item_title.xml').items[0].title).toBe('Example title');
    expect(read('wellformed/cdf/item_title.xml')).toMatchObject({version: 'CDF', items: [{title: 'Example item'}]});
    expect(read('wellformed/cdf/channel_href_map_link.xml').link).toBe('http://www.example.org/');
  });

  it('Atom 1.0 and 0.3 entries', () => {
    expect(read('wellformed/atom10/feed_title.xml')).toMatchObject({format: 'atom', version: 'Atom 1.0', title: 'Example Atom'});
    expect(read('wellformed/atom/feed_title.xml').version).toBe('Atom 0.3');
    expect(read('wellformed/atom10/entry_id.xml').items[0].guid).toBe('http://example.com/');
    expect(read('wellformed/atom10/entry_link_alternate_map_link.xml').items[0].link).toBe('http://www.example.com/');
    expect(read('wellformed/atom10/entry_author_name.xml').items[0].author).toBe('Example author');
    expect(read('wellformed/atom/entry_published_parsed.xml').items[0].published).toBe('2003-12-31T10:14:55.000Z');
    expect(read('wellformed/atom/entry_modified_map_updated_parsed.xml').items[0].updated).toBe('2004-01-01T19:48:21.000Z');
    expect(read('wellformed/atom10/entry_category_term.xml').items[0].categories).toEqual(['atom10']);
    expect(read('wellformed/atom/entry_issued_parsed.xml').items[0].published).toBe('2003-12-31T10:14:55.000Z');
  });

  it('Atom titles: HTML and XHTML become text, text stays text', () => {
    expect(read('wellformed/atom10/entry_title_escaped_markup.xml').items[0].title).toBe('Example Atom');
    expect(read('wellformed/atom10/entry_title_inline_markup.xml').items[0].title).toBe('Example Atom');
    expect(read('wellformed/atom10/entry_title_text_plain_brackets.xml').items[0].title).toBe('History of the <blink> tag');
    expect(read('wellformed/atom10/entry_title_base64.xml').items[0].title).toBe('Example Atom');
  });

  it('Atom content keeps its markup; text content is escaped', () => {
    expect(read('wellformed/atom10/entry_content_inline_markup.xml').items[0].content).toBe('Example <b>Atom</b>');
    expect(read('wellformed/atom10/entry_content_escaped_markup.xml').items[0].content).toBe('Example <b>Atom</b>');
    expect(read('wellformed/atom10/entry_content_text_plain_brackets.xml').items[0].content).toBe('History of the &lt;blink&gt; tag');
  });

  it('relative links resolve against xml:base and the document URL', () => {
    expect(read('wellformed/base/http_entry_link_base_docuri.xml').items[0].link).toBe('http://127.0.0.1:8097/relative/link');
    expect(read('wellformed/base/http_item_link_base_docuri.xml').items[0].link).toBe('http://127.0.0.1:8097/relative/uri');
    expect(read('wellformed/base/http_item_link_base_content_location.xml').items[0].link).toBe('http://example.com/relative/uri');
  });

  it('entities: HTML names in XML, numeric references, undefined names kept, bare ampersands kept', () => {
    expect(read('entities/eacute.xml').title).toBe('testing \u00e9 entity');
    expect(read('entities/8217.xml').title).toBe('testing \u2019 entity');
    expect(read('entities/hex_entity_x_uppercase.xml').items[0].title).toBe('A');
    expect(read('entities/doesnotexist.xml').title).toBe('testing &doesnotexist; entity');
    expect(read('entities/query_variable_feed.xml').link).toBe('http://example/?a=1&b=2&c');
    expect(read('entities/attr_amp.xml').link).toBe('http://domain/?a=1&b=2');
  });

  it('local-name clashes from other namespaces are not taken for RSS elements', () => {
    expect(read('wellformed/namespace/rss2.0noNSwithModulesLocalNameClash.xml').items[0].summary).toBe('correct description');
    expect(read('wellformed/namespace/rss1.0withModulesNoDefNSLocalNameClash.xml').items[0].summary).toBe('correct description');
  });

  it('JSON Feed', () => {
    const feed = read('json/example.json');
    expect(feed).toMatchObject({format: 'json', version: 'JSON Feed 1.0', title: 'My Example Feed', link: 'https://example.org/'});
    expect(feed.items).toHaveLength(2);
  });
});
