import {describe, expect, it} from 'vitest';
import {parseFeed} from '../../../../source/feeds/parser/index.js';

const v11 = {
  version: 'https://jsonfeed.org/version/1.1',
  title: 'Notes &amp; links',
  home_page_url: 'https://notes.example/',
  feed_url: 'https://notes.example/feed.json',
  description: 'Short <em>notes</em>',
  authors: [{name: 'Ada'}],
  items: [
    {
      id: 'https://notes.example/1',
      url: '/posts/1',
      title: 'First',
      content_html: '<p>Hello</p>',
      summary: 'A <greeting>',
      date_published: '2024-02-03T04:05:06+01:00',
      date_modified: '2024-02-04T00:00:00Z',
      tags: ['intro', 'intro', ' misc '],
      authors: [{name: 'Grace', url: 'https://grace.example/'}],
    },
    {id: 2, content_text: 'Untitled note with <angle> brackets and quite a lot more words than a title would ever have in it'},
    {id: '', external_url: 'https://elsewhere.example/x', title: 'Linked'},
  ],
};

describe('JSON Feed', () => {
  it('1.1: feed fields, items with ids, links resolved against the home page, dates in UTC', () => {
    const feed = parseFeed(Buffer.from(JSON.stringify(v11)), 'application/feed+json');
    expect(feed).toMatchObject({format: 'json', version: 'JSON Feed 1.1', title: 'Notes & links', link: 'https://notes.example/', description: 'Short notes'});
    expect(feed.items[0]).toEqual({
      guid: 'https://notes.example/1',
      title: 'First',
      link: 'https://notes.example/posts/1',
      author: 'Grace',
      published: '2024-02-03T03:05:06.000Z',
      updated: '2024-02-04T00:00:00.000Z',
      summary: 'A &lt;greeting&gt;',
      content: '<p>Hello</p>',
      categories: ['intro', 'misc'],
    });
  });

  it('content_text is escaped into HTML, a numeric id becomes a string, the feed author is inherited', () => {
    const item = parseFeed(JSON.stringify(v11)).items[1];
    expect(item.guid).toBe('2');
    expect(item.content).toBe('Untitled note with &lt;angle&gt; brackets and quite a lot more words than a title would ever have in it');
    expect(item.author).toBe('Ada');
    // No title: the first words of the text stand in.
    expect(item.title).toBe('Untitled note with <angle> brackets and quite a lot more words than a title…');
  });

  it('external_url when there is no url; an empty id is no id', () => {
    const item = parseFeed(JSON.stringify(v11)).items[2];
    expect(item.link).toBe('https://elsewhere.example/x');
    expect(item.guid).toBeUndefined();
  });

  it('1.0: a single author object, version "1"', () => {
    const feed = parseFeed(
      JSON.stringify({version: 'https://jsonfeed.org/version/1', title: 'Old', author: {name: 'Solo'}, items: [{id: 'a', title: 'x', content_html: '<b>y</b>'}]}),
    );
    expect(feed.version).toBe('JSON Feed 1.0');
    expect(feed.items[0]).toMatchObject({author: 'Solo', content: '<b>y</b>'});
  });

  it('a JSON body is found by its first character, whatever the Content-Type says', () => {
    expect(parseFeed(Buffer.from(`  ${JSON.stringify(v11)}`), 'text/plain').format).toBe('json');
  });

  it('JSON that is not a feed, and broken JSON, are not_a_feed', () => {
    expect(() => parseFeed('{"hello": "world"}')).toThrow(/not a feed: JSON without a JSON Feed version, title or items/);
    expect(() => parseFeed('{"version": "https://jsonfeed.org/version/1.1", "title": "x", "items": [')).toThrow(/not a feed: invalid JSON/);
  });
});
