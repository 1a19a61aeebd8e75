import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import ParseCommand from '../../../../commands/feeds/parse.js';
import {parseFeed} from '../../../../source/feeds/parser/index.js';
import {readFeedSource} from '../../../../source/feeds/parser/read-source.js';

const FEED = `<?xml version="1.0" encoding="ISO-8859-1"?>
<rss version="2.0"><channel><title>Caf\xe9 news</title><link>/</link><ttl>30</ttl>
<item><title>First</title><link>posts/1</link><guid>g-1</guid><pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate><author>ann@example.com (Ann)</author><category>a</category><category>b</category><enclosure url="https://cdn.example/ep1.mp3" type="audio/mpeg" length="12216320"/></item>
<item><title>Second</title><description>no link, no guid</description></item>
</channel></rss>`;

async function run(target: string, json = false): Promise<string> {
  const result = await ParseCommand.task({args: [target], options: {json}});
  return result.stdout ?? '';
}

async function failure(promise: Promise<unknown>): Promise<{code?: string; message: string}> {
  try {
    await promise;
  } catch (error) {
    return error as {code?: string; message: string};
  }
  throw new Error('no error');
}

describe('workbench feeds parse <file>', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'wb-feeds-parse-'));
    writeFileSync(path.join(dir, 'feed.xml'), Buffer.from(FEED, 'latin1'));
    writeFileSync(path.join(dir, 'page.html'), '<!doctype html><html><body>hello</body></html>');
    mkdirSync(path.join(dir, 'folder'));
  });
  afterAll(() => rmSync(dir, {recursive: true, force: true}));

  it('prints the feed, then a block per item with link, id, published, author, categories, enclosures', async () => {
    const out = await run(path.join(dir, 'feed.xml'));
    expect(out).toContain('Café news\n');
    expect(out).toContain('  format   RSS 2.0 · ttl 30 min\n');
    expect(out).toContain('  items    2\n');
    expect(out).toContain(
      '1. First\n   link       posts/1\n   id         g-1\n   published  2024-01-01T10:00:00.000Z\n   author     ann@example.com (Ann)\n   categories a, b\n   enclosure  https://cdn.example/ep1.mp3 (audio/mpeg, 12 MB)\n',
    );
    // No guid: the key it will be stored under (a hash, having no link either).
    expect(out).toMatch(/2\. Second\n {3}link {7}—\n {3}id {9}— \(stored as sha256:[0-9a-f]{64}\)\n/);
  });

  it('--json prints the ParsedFeed', async () => {
    const out = await run(path.join(dir, 'feed.xml'), true);
    expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(parseFeed(Buffer.from(FEED, 'latin1')))));
  });

  it('bad input is one clear error', async () => {
    expect(await failure(run(path.join(dir, 'page.html')))).toMatchObject({code: 'not_a_feed', message: 'not a feed: an HTML page'});
    expect(await failure(run(path.join(dir, 'missing.xml')))).toMatchObject({code: 'not_found'});
    expect(await failure(run(path.join(dir, 'folder')))).toMatchObject({code: 'invalid_argument'});
    expect(await failure(run('ftp://example.com/feed.xml'))).toMatchObject({code: 'invalid_argument'});
    expect(await failure(readFeedSource(path.join(dir, 'feed.xml'), {maxBytes: 100}))).toMatchObject({code: 'payload_too_large'});
  });
});

describe('workbench feeds parse <url>', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      if (request.url === '/old') {
        response.writeHead(301, {location: '/feeds/main.xml'}).end();
      } else if (request.url === '/feeds/main.xml') {
        response.writeHead(200, {'content-type': 'application/rss+xml; charset=iso-8859-1'}).end(Buffer.from(FEED, 'latin1'));
      } else if (request.url === '/big') {
        response.writeHead(200, {'content-type': 'application/xml'});
        response.end(Buffer.alloc(64 * 1024, 'a'));
      } else {
        response.writeHead(404).end('nope');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('follows redirects, decodes by the header charset, resolves the site link against the final URL and entries against it', async () => {
    const feed = JSON.parse(await run(`${base}/old`, true));
    expect(feed.title).toBe('Café news');
    expect(feed.link).toBe(`${base}/`);
    expect(feed.items[0].link).toBe(`${base}/posts/1`);
  });

  it('HTTP errors, unreachable hosts and oversized bodies are clear errors', async () => {
    expect(await failure(run(`${base}/missing`))).toMatchObject({code: 'feed_unreachable', message: `HTTP 404 Not Found from ${base}/missing`});
    expect(await failure(readFeedSource(`${base}/big`, {maxBytes: 10_000}))).toMatchObject({code: 'payload_too_large'});
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await failure(run(`http://127.0.0.1:${port}/feed`))).toMatchObject({code: 'feed_unreachable'});
  });
});
