import {describe, expect, it} from 'vitest';
import {articleKey, parseFeed} from '../../../../source/feeds/parser/index.js';

const rss = (items: string) => `<rss version="2.0"><channel><title>t</title><link>https://site.example/</link>${items}</channel></rss>`;

describe('articleKey', () => {
  it('is the guid when there is one, trimmed', () => {
    expect(articleKey({guid: '  tag:site.example,2024:1 ', link: 'https://site.example/1', title: 'x', categories: []})).toBe('tag:site.example,2024:1');
  });

  it('falls back to the link, then to a hash of title and content', () => {
    expect(articleKey({guid: '   ', link: 'https://site.example/1', title: 'x', categories: []})).toBe('https://site.example/1');
    const hashed = articleKey({title: 'Hello', content: '<p>body</p>', categories: []});
    expect(hashed).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(articleKey({title: 'Hello', content: '<p>other body</p>', categories: []})).not.toBe(hashed);
    expect(articleKey({title: 'Hello', summary: '<p>body</p>', categories: []})).toBe(hashed);
    // Title and content are kept apart: "ab" + "c" is not "a" + "bc".
    expect(articleKey({title: 'ab', content: 'c', categories: []})).not.toBe(articleKey({title: 'a', content: 'bc', categories: []}));
  });

  it('is stable across polls: a refresh with reordered, edited and new entries maps old entries to old keys', () => {
    const first = parseFeed(
      rss('<item><guid>1</guid><title>One</title></item><item><title>Two</title><link>/two</link></item><item><title>Three</title><description>only text</description></item>'),
    );
    const second = parseFeed(
      rss(
        '<item><title>Zero</title><link>/zero</link></item><item><title>Three</title><description>only text</description></item><item><guid>1</guid><title>One (edited)</title></item><item><title>Two</title><link>/two</link></item>',
      ),
    );
    const before = new Set(first.items.map(articleKey));
    const after = second.items.map(articleKey);
    expect(after.filter((key) => !before.has(key))).toEqual(['https://site.example/zero']);
    expect(before.size).toBe(3);
  });

  it('relative links are resolved before they become keys, so the key does not depend on the poll', () => {
    const a = parseFeed(rss('<item><title>x</title><link>/a</link></item>'));
    expect(articleKey(a.items[0])).toBe('https://site.example/a');
  });
});
