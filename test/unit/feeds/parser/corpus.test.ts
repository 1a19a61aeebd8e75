import {readFileSync} from 'node:fs';
import path from 'node:path';
import {parseFeed as feedsmithParse} from 'feedsmith';
import RssParser from 'rss-parser';
import {describe, expect, it} from 'vitest';
import {isWorkbenchError} from '../../../../source/core/errors.js';
import {parseFeed} from '../../../../source/feeds/parser/index.js';
import {CORPUS, corpusFiles} from './corpus.js';

// Files that may throw not_a_feed, per folder: the figure we reached, recorded so it cannot grow.
// illformed/rss_empty_document.xml holds nothing but a comment; Miniflux's xml/testdata has two
// <note> documents (charset tests, not feeds).
const MAX_THROWING: Record<string, number> = {
  'feedparser/wellformed': 0,
  'feedparser/illformed': 1,
  'feedparser/encoding': 0,
  'feedparser/entities': 0,
  'feedparser/json': 0,
  miniflux: 2,
};

function folderOf(rel: string): string {
  const parts = rel.split(path.sep);
  return parts[0] === 'feedparser' ? `${parts[0]}/${parts[1]}` : parts[0];
}

describe('the feed corpus', () => {
  const files = corpusFiles();

  it('parses every file without crashing; what throws is not_a_feed, within the recorded count per folder', () => {
    const throwing: Record<string, string[]> = {};
    for (const rel of files) {
      try {
        const feed = parseFeed(readFileSync(path.join(CORPUS, rel)));
        expect(Array.isArray(feed.items)).toBe(true);
      } catch (error) {
        // Anything but our error (a TypeError, a RangeError) is a crash.
        expect(isWorkbenchError(error) && error.code, `${rel}: ${String(error)}`).toBe('not_a_feed');
        (throwing[folderOf(rel)] ??= []).push(rel);
      }
    }
    expect(files.length).toBeGreaterThan(2000);
    for (const [folder, max] of Object.entries(MAX_THROWING)) {
      expect((throwing[folder] ?? []).length, `${folder}: ${(throwing[folder] ?? []).join(', ')}`).toBeLessThanOrEqual(max);
    }
    expect(Object.keys(throwing).every((folder) => folder in MAX_THROWING)).toBe(true);
  });

  it('throws on fewer well-formed files than feedsmith and rss-parser', async () => {
    const wellformed = corpusFiles(path.join('feedparser', 'wellformed'));
    const rssParser = new RssParser();
    let ours = 0;
    let feedsmith = 0;
    let rssParserThrows = 0;
    for (const rel of wellformed) {
      const bytes = readFileSync(path.join(CORPUS, rel));
      try {
        parseFeed(bytes);
      } catch {
        ours++;
      }
      try {
        feedsmithParse(bytes.toString('utf8'));
      } catch {
        feedsmith++;
      }
      try {
        await rssParser.parseString(bytes.toString('utf8'));
      } catch {
        rssParserThrows++;
      }
    }
    expect(wellformed.length).toBeGreaterThan(1700);
    expect(ours).toBeLessThan(feedsmith);
    expect(ours).toBeLessThan(rssParserThrows);
    expect(ours).toBe(0);
  });

  it("reads Miniflux's large feeds whole", () => {
    const rss = parseFeed(readFileSync(path.join(CORPUS, 'miniflux/internal/reader/parser/testdata/large_rss.xml')));
    const atom = parseFeed(readFileSync(path.join(CORPUS, 'miniflux/internal/reader/parser/testdata/large_atom.xml')));
    expect(rss.format).toBe('rss');
    expect(rss.items.length).toBeGreaterThan(10);
    expect(rss.items.every((item) => item.title && item.link?.startsWith('http'))).toBe(true);
    expect(atom.format).toBe('atom');
    expect(atom.items.length).toBeGreaterThan(10);
    expect(atom.items.every((item) => item.guid && item.published)).toBe(true);
  });
});
