import {readFileSync, readdirSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {isFeedContentType, sniffFeedFormat} from '../../../../source/feeds/discovery/index.js';

const corpus = path.resolve(__dirname, '../../../../fixtures/feeds/feedparser');
const sniff = (text: string) => sniffFeedFormat(Buffer.from(text));

describe('sniffFeedFormat', () => {
  it('names RSS, Atom, RDF and JSON Feed by their root', () => {
    expect(sniff('<?xml version="1.0"?>\n<rss version="2.0"><channel/></rss>')).toBe('rss');
    expect(sniff('<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>')).toBe('atom');
    expect(sniff('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><channel/></rdf:RDF>')).toBe('rdf');
    expect(sniff('{"version": "https://jsonfeed.org/version/1.1", "title": "x", "items": []}')).toBe('json');
  });

  it('looks past a BOM, comments, processing instructions and a DOCTYPE with an internal subset', () => {
    const text = '\uFEFF<?xml version="1.0"?>\n<!-- generator -->\n<?xml-stylesheet href="a.xsl"?>\n<!DOCTYPE rss [<!ENTITY a "b">]>\n<rss/>';
    expect(sniff(text)).toBe('rss');
  });

  it('reads the UTF-16 and UTF-32 files of the corpus', () => {
    const folder = path.join(corpus, 'encoding');
    const files = readdirSync(folder).filter((name) => /^utf-(16|32)(be|le)(-bom)?\.xml$/.test(name));
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const file of files) expect(sniffFeedFormat(readFileSync(path.join(folder, file))), file).not.toBeNull();
  });

  it('finds the version of a JSON Feed that is not the first key', () => {
    const items = Array.from({length: 3000}, (_, i) => ({id: String(i), content_text: 'x'.repeat(20)}));
    expect(sniff(JSON.stringify({title: 't', items, version: 'https://jsonfeed.org/version/1'}))).toBe('json');
  });

  it('refuses HTML, other JSON and garbage', () => {
    expect(sniff('<!DOCTYPE html>\n<html><head><title>x</title></head></html>')).toBeNull();
    expect(sniff('{"posts": []}')).toBeNull();
    expect(sniff('{not json')).toBeNull();
    expect(sniffFeedFormat(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toBeNull();
    expect(sniff('')).toBeNull();
  });
});

describe('isFeedContentType', () => {
  it('accepts feed media types with parameters and refuses generic XML', () => {
    expect(isFeedContentType('application/rss+xml; charset=utf-8')).toBe(true);
    expect(isFeedContentType('Application/Atom+XML')).toBe(true);
    expect(isFeedContentType('application/feed+json')).toBe(true);
    expect(isFeedContentType('text/xml')).toBe(false);
    expect(isFeedContentType('text/html')).toBe(false);
    expect(isFeedContentType(null)).toBe(false);
  });
});
