import {describe, expect, it} from 'vitest';
import {articleView} from '../../../source/feeds/article-text.js';
import {enclosuresOf} from '../../../source/feeds/enclosure-text.js';
import type {Enclosure, FullArticle} from '../../../source/feeds/types.js';

// The reader view's enclosure lines, as `articles show` prints them and the Feeds pane draws them.

const article = (enclosures: Enclosure[]): FullArticle => ({
  id: 7,
  feedId: 1,
  title: 'Episode 12',
  link: 'https://pod.example/12',
  author: null,
  publishedAt: null,
  summary: null,
  content: '<p>Show notes</p>',
  categories: [],
  read: false,
  snoozedUntil: null,
  listIds: [],
  enclosures,
});

const EPISODE: Enclosure = {url: 'https://cdn.example/ep12.mp3', type: 'audio/mpeg', length: 9_700_000, durationSeconds: 3723};
const episodes = (count: number): Enclosure[] => Array.from({length: count}, (_, index) => ({url: `https://cdn.example/part${index + 1}.mp3`}));
// Any C0/C1 control or escape sequence left in a header line is a terminal obeying a feed.
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;

describe('articleView with enclosures', () => {
  it('shows one enclosure as an "Enclosure:" header line after the link, with type, size and playing time', () => {
    const {header, enclosureRow} = articleView(article([EPISODE]), {title: 'Pod'});
    expect(header).toEqual(['Episode 12', 'Feed:    Pod', 'Link:    https://pod.example/12', 'Enclosure: https://cdn.example/ep12.mp3 (audio/mpeg, 9.7 MB, 1:02:03)']);
    expect(enclosureRow).toBe(3);
  });

  it('numbers several, in the feed’s order; none gives no line', () => {
    const {header} = articleView(article(episodes(3)), undefined);
    expect(header.filter((line) => line.startsWith('Enclosure'))).toEqual([
      'Enclosure 1: https://cdn.example/part1.mp3',
      'Enclosure 2: https://cdn.example/part2.mp3',
      'Enclosure 3: https://cdn.example/part3.mp3',
    ]);
    expect(articleView(article([]), undefined).header.some((line) => line.includes('Enclosure'))).toBe(false);
  });

  it('caps the lines at maxEnclosures with a window holding the chosen one, and says how many more', () => {
    const first = articleView(article(episodes(7)), undefined, 80, {maxEnclosures: 3});
    expect(first.header.slice(-4)).toEqual([
      'Enclosure 1: https://cdn.example/part1.mp3',
      'Enclosure 2: https://cdn.example/part2.mp3',
      'Enclosure 3: https://cdn.example/part3.mp3',
      '         +4 more enclosures (7 in all)',
    ]);
    expect(first.header[first.enclosureRow!]).toBe('Enclosure 1: https://cdn.example/part1.mp3');
    const sixth = articleView(article(episodes(7)), undefined, 80, {maxEnclosures: 3, chosenEnclosure: 5});
    expect(sixth.header.filter((line) => line.startsWith('Enclosure'))).toEqual([
      'Enclosure 4: https://cdn.example/part4.mp3',
      'Enclosure 5: https://cdn.example/part5.mp3',
      'Enclosure 6: https://cdn.example/part6.mp3',
    ]);
    expect(sixth.header[sixth.enclosureRow!]).toBe('Enclosure 6: https://cdn.example/part6.mp3');
    // A choice past the end is the last one, not a crash.
    const past = articleView(article(episodes(2)), undefined, 80, {chosenEnclosure: 9});
    expect(past.header[past.enclosureRow!]).toBe('Enclosure 2: https://cdn.example/part2.mp3');
  });

  it('the brief header (a short screen) gives the chosen enclosure one line: "Enclosure 2/3: …"', () => {
    const one = articleView(article([EPISODE]), {title: 'Pod'}, 80, {brief: true});
    expect(one.header).toEqual(['Episode 12', 'Pod', 'https://pod.example/12', 'Enclosure: https://cdn.example/ep12.mp3 (audio/mpeg, 9.7 MB, 1:02:03)']);
    const second = articleView(article(episodes(3)), undefined, 80, {brief: true, chosenEnclosure: 1});
    expect(second.header.at(-1)).toBe('Enclosure 2/3: https://cdn.example/part2.mp3');
    expect(second.enclosureRow).toBe(second.header.length - 1);
  });

  it('strips control characters and escape sequences in an enclosure’s URL and type (both modes)', () => {
    const hostile: Enclosure = {url: 'https://cdn.example/\x1b]52;c;ZXZpbA==\x07ep.mp3\x1b[2J\r\n\u202e', type: 'audio/\x1b]0;pwned\x07mpeg\x9b31m', length: 1000};
    for (const brief of [false, true]) {
      const {header} = articleView(article([hostile, hostile]), undefined, 80, {brief});
      const lines = header.filter((line) => line.startsWith('Enclosure'));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line).not.toMatch(CONTROL);
        expect(line).not.toContain('\u202e');
        expect(line).not.toContain('52;c');
        expect(line).not.toContain('pwned');
        expect(line).toContain('https://cdn.example/ep.mp3');
        expect(line).toContain('(audio/mpeg');
      }
    }
  });

  it('an article from a reader server without enclosures in its answer (field absent or garbage) has none', () => {
    const {enclosures: _dropped, ...older} = article([EPISODE]);
    expect(enclosuresOf(older)).toEqual([]);
    expect(enclosuresOf({enclosures: 'https://x.example/a.mp3'})).toEqual([]);
    expect(enclosuresOf({enclosures: null})).toEqual([]);
    expect(articleView(older as FullArticle, undefined).header.some((line) => line.includes('Enclosure'))).toBe(false);
  });
});
