import {readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {decodeFeedBody, sniffCharset} from '../../../../source/feeds/encoding/index.js';
import {parseFeed} from '../../../../source/feeds/parser/index.js';
import {CORPUS, corpusFiles, feedparserContentType} from './corpus.js';
import {readAnnotation} from './feedparser-expect.js';

const bytes = (rel: string) => readFileSync(path.join(CORPUS, rel));
const encodingFiles = corpusFiles(path.join('feedparser', 'encoding'));
const expectedEncoding = (text: string) => /encoding == '([^']+)'/.exec(readAnnotation(text)?.expect ?? '')?.[1];

describe("feedparser's encoding cases", () => {
  const httpFiles = encodingFiles.filter((rel) => path.basename(rel).startsWith('http_'));

  it.each(httpFiles)('%s: the charset feedparser expects from its Content-Type and declaration', (rel) => {
    const body = bytes(rel);
    const text = decodeFeedBody(body, null);
    const header = feedparserContentType(text);
    const expected = expectedEncoding(text);
    const feed = parseFeed(body, header);
    expect(feed.format).toMatch(/^(rss|atom)$/);
    if (expected) expect(sniffCharset(body, header).charset).toBe(expected);
  });

  it('covers every http_* file and finds a charset expectation in most', () => {
    expect(httpFiles.length).toBeGreaterThanOrEqual(45);
    expect(httpFiles.filter((rel) => expectedEncoding(bytes(rel).toString('latin1'))).length).toBeGreaterThanOrEqual(40);
  });

  it('the header charset decodes the body (windows-1252 punctuation, even where Node reads it as Latin-1)', () => {
    for (const rel of ['feedparser/encoding/http_text_xml_charset_2.xml', 'feedparser/encoding/http_text_xml_charset_overrides_encoding_2.xml']) {
      const body = bytes(rel);
      const feed = parseFeed(body, feedparserContentType(body.toString('latin1')));
      expect(feed.items[0].summary).toBe('This is a \u00a3\u201ctest.\u201d');
    }
  });

  it('UTF-16 and UTF-32, with and without a BOM, are recognised by their bytes', () => {
    const unicode = encodingFiles.filter((rel) => /utf-?(16|32)|u16|utf_/.test(path.basename(rel)));
    expect(unicode.length).toBeGreaterThanOrEqual(16);
    for (const rel of unicode) {
      const body = bytes(rel);
      const text = decodeFeedBody(body, null);
      expect(text.startsWith('<?xml'), rel).toBe(true);
      const expected = expectedEncoding(text);
      if (expected) expect(sniffCharset(body, null).charset, rel).toBe(expected);
      expect(parseFeed(body).format, rel).toBe('rss');
    }
  });

  it('declared legacy charsets: Big5, EUC-KR; a UTF-8 BOM', () => {
    expect(sniffCharset(bytes('feedparser/encoding/big5.xml'), null).charset).toBe('big5');
    expect(parseFeed(bytes('feedparser/encoding/euc-kr.xml')).title).toBe('\ub144');
    expect(parseFeed(bytes('feedparser/encoding/euc-kr-item.xml')).items[0].summary).toBe('\ub144');
    expect(sniffCharset(bytes('feedparser/encoding/utf-8-bom.xml'), null)).toEqual({charset: 'utf-8', source: 'bom'});
  });

  it('windows-1252 code points stored as Latin-1 control characters become the punctuation meant', () => {
    expect(parseFeed(bytes('feedparser/encoding/demoronize-1.xml')).items[0].summary).toBe('don\u2019t');
    expect(parseFeed(bytes('feedparser/encoding/demoronize-2.xml')).items[0].summary).toBe('don\u2019t');
  });

  it('bozo files (deliberately broken encodings) never throw', () => {
    const bozo = [...encodingFiles.filter((rel) => path.basename(rel).startsWith('bozo_')), ...corpusFiles(path.join('feedparser', 'illformed', 'chardet'))];
    expect(bozo.length).toBeGreaterThanOrEqual(15);
    for (const rel of bozo) {
      const body = bytes(rel);
      expect(() => parseFeed(body, feedparserContentType(body.toString('latin1'))), rel).not.toThrow();
    }
  });
});

describe("Miniflux's odd charsets", () => {
  const mf = (rel: string) => bytes(`miniflux/internal/reader/${rel}`);

  it('reads KOI8-R and windows-1251 by their declarations', () => {
    const koi8 = parseFeed(mf('encoding/testdata/koi8r.xml'));
    expect(koi8.title).toBe('Пример RSS ленты');
    expect(koi8.items.map((item) => item.title)).toEqual(['Первая новость', 'Вторая новость']);
    expect(parseFeed(mf('parser/testdata/encoding_WINDOWS-1251.xml')).description).toBe('Новый цитатник Рунета');
  });

  it('reads ISO-8859-1 and windows-1252 by their declarations', () => {
    expect(parseFeed(mf('encoding/testdata/iso-8859-1.xml'))).toMatchObject({title: 'Café', description: 'Présentation'});
    expect(parseFeed(mf('encoding/testdata/windows-1252.xml')).title).toBe('Euro €');
  });

  it('a body that is valid UTF-8 is UTF-8 whatever its declaration claims', () => {
    expect(parseFeed(mf('encoding/testdata/windows-1252-incorrect-prolog.xml')).title).toBe('Euro €');
    const wrong = parseFeed(mf('encoding/testdata/utf8-incorrect-prolog.xml'));
    expect(wrong.title).toBe('테스트 피드');
    expect(wrong.items[0].title).toBe('Café');
    expect(sniffCharset(mf('encoding/testdata/utf8-incorrect-prolog.xml'), null)).toEqual({charset: 'utf-8', source: 'utf8-valid'});
    expect(parseFeed(mf('encoding/testdata/invalid-prolog.xml')).title).toBe('테스트 피드');
  });

  it('a body that is not UTF-8 and declares nothing usable is read as windows-1252', () => {
    const feed = parseFeed(mf('parser/testdata/no_encoding_ISO-8859-1.xml'));
    expect(feed.items.some((item) => item.title.includes('très complexe'))).toBe(true);
    expect(sniffCharset(mf('parser/testdata/no_encoding_ISO-8859-1.xml'), null)).toEqual({charset: 'windows-1252', source: 'fallback'});
    const mismatch = decodeFeedBody(mf('xml/testdata/iso88591_utf8_mismatch.xml'), null);
    expect(mismatch).toContain('Anaïs');
    expect(mismatch).toContain('Jürgen');
  });

  it('HTML pages: <meta charset>, and UTF-8 validity when the meta comes too late', () => {
    expect(decodeFeedBody(mf('encoding/testdata/iso-8859-1.html'), null)).toContain('Frédéric');
    expect(sniffCharset(mf('encoding/testdata/iso-8859-1.html'), null)).toEqual({charset: 'iso-8859-1', source: 'meta'});
    expect(decodeFeedBody(mf('encoding/testdata/utf8.html'), null)).toContain('Café');
    expect(decodeFeedBody(mf('encoding/testdata/iso-8859-1-meta-after-1024.html'), null)).toContain('Frédéric');
    expect(decodeFeedBody(mf('encoding/testdata/utf8-meta-after-1024.html'), null)).toContain('Frédéric');
  });

  it('Urdu in UTF-8 with CDATA titles', () => {
    const feed = parseFeed(mf('parser/testdata/urdu_UTF8.xml'));
    expect(feed.title).toBe('BBC News اردو - پاکستان کے لیے امریکی امداد کی بہار و خزاں');
  });
});

describe('decodeFeedBody on made-up bodies', () => {
  const latin1 = Buffer.from('<?xml version="1.0"?><rss><channel><title>Caf\xe9 \x93quoted\x94</title></channel></rss>', 'latin1');

  it('the Content-Type charset wins over the declaration, and quotes and spaces around it are fine', () => {
    const declared = Buffer.from('<?xml version="1.0" encoding="utf-8"?><rss><channel><title>Caf\xe9</title></channel></rss>', 'latin1');
    expect(sniffCharset(declared, 'application/rss+xml; charset = "ISO-8859-1"')).toEqual({charset: 'iso-8859-1', source: 'header'});
    expect(parseFeed(declared, 'application/rss+xml; charset = "ISO-8859-1"').title).toBe('Café');
  });

  it('an unknown label falls back to UTF-8, then to windows-1252 when the bytes are not UTF-8', () => {
    expect(sniffCharset(Buffer.from('<?xml version="1.0" encoding="x-bogus"?><rss/>'), null)).toEqual({charset: 'utf-8', source: 'default'});
    expect(parseFeed(latin1, 'text/xml; charset=nonsense').title).toBe('Café “quoted”');
  });

  it('a few stray bytes in UTF-8 stay UTF-8 (replacement characters), not mojibake', () => {
    const mostlyUtf8 = Buffer.concat([Buffer.from('<rss><channel><title>Ünïcödé ok'), Buffer.from([0xff]), Buffer.from('</title></channel></rss>')]);
    expect(parseFeed(mostlyUtf8).title).toBe('Ünïcödé ok\ufffd');
  });

  it('a UTF-16 label on an ASCII-readable body is ignored', () => {
    expect(sniffCharset(Buffer.from('<?xml version="1.0" encoding="utf-16"?><rss/>'), null).charset).toBe('utf-8');
  });

  it('strips the BOM', () => {
    expect(decodeFeedBody(Buffer.from('\ufeff<rss/>'), null)).toBe('<rss/>');
    expect(decodeFeedBody(Buffer.from('\ufeff<rss/>', 'utf16le'), null)).toBe('<rss/>');
  });
});
