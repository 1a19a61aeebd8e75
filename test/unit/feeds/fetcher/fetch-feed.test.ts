import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {WorkbenchError} from '../../../../source/core/errors.js';
import {FEED_ACCEPT, fetchFeed} from '../../../../source/feeds/fetcher/index.js';
import {startFeedOrigin, type FeedOrigin} from '../../../../fixtures/feed-origin/server.mjs';

let origin: FeedOrigin;
beforeAll(async () => {
  origin = await startFeedOrigin({slowMs: 10_000});
});
afterAll(async () => {
  await origin.close();
});

async function failure(promise: Promise<unknown>): Promise<WorkbenchError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WorkbenchError);
  return error as WorkbenchError;
}

describe('fetchFeed', () => {
  it('returns the body, content type and validators of a 200', async () => {
    const result = await fetchFeed(`${origin.url}/data/miniflux/internal/reader/parser/testdata/large_rss.xml`);
    expect(result.status).toBe('ok');
    expect(result.body.length).toBeGreaterThan(100_000);
    expect(result.body.subarray(0, 5).toString()).toBe('<?xml');
    expect(result.contentType).toBe('application/xml');
    expect(result.etag).toMatch(/^"[0-9a-f]{16}"$/);
    expect(result.lastModified).toBe('Mon, 06 Jan 2025 10:00:00 GMT');
    expect(result.finalUrl).toBe(`${origin.url}/data/miniflux/internal/reader/parser/testdata/large_rss.xml`);
    expect(result.permanentUrl).toBeNull();
  });

  it('names itself and asks for feeds', async () => {
    await fetchFeed(`${origin.url}/gen/headers.xml`);
    const headers = origin.lastHeaders.get('/gen/headers.xml')!;
    expect(headers['user-agent']).toMatch(/workbench/);
    expect(headers.accept).toBe(FEED_ACCEPT);
    expect(headers['if-none-match']).toBeUndefined();
  });

  it('sends stored validators back exactly and reports a 304 as not_modified', async () => {
    const first = await fetchFeed(`${origin.url}/gen/conditional.xml`);
    const second = await fetchFeed(`${origin.url}/gen/conditional.xml`, {etag: first.etag, lastModified: first.lastModified});
    const headers = origin.lastHeaders.get('/gen/conditional.xml')!;
    expect(headers['if-none-match']).toBe(first.etag);
    expect(headers['if-modified-since']).toBe(first.lastModified);
    expect(second.status).toBe('not_modified');
    expect(second.body.length).toBe(0);
    expect(second.etag).toBe(first.etag);
    expect(second.lastModified).toBe(first.lastModified);
  });

  it('sends a weak ETag unchanged', async () => {
    const first = await fetchFeed(`${origin.url}/weak-etag.xml`);
    expect(first.etag).toBe('W/"weak-1"');
    const second = await fetchFeed(`${origin.url}/weak-etag.xml`, {etag: first.etag});
    expect(origin.lastHeaders.get('/weak-etag.xml')!['if-none-match']).toBe('W/"weak-1"');
    expect(second.status).toBe('not_modified');
  });

  it('gets a full body when the feed changed since the stored validators', async () => {
    const first = await fetchFeed(`${origin.url}/gen/changing.xml?volatile=1`);
    const second = await fetchFeed(`${origin.url}/gen/changing.xml?volatile=1`, {etag: first.etag, lastModified: first.lastModified});
    expect(second.status).toBe('ok');
    expect(second.etag).not.toBe(first.etag);
    expect(second.body.toString()).toContain('revision 2');
  });

  it('decodes gzip and brotli bodies', async () => {
    const gzip = await fetchFeed(`${origin.url}/gzip.xml`);
    const brotli = await fetchFeed(`${origin.url}/br.xml`);
    expect(gzip.body.toString()).toContain('<title>Generated feed compressed</title>');
    expect(brotli.body.equals(gzip.body)).toBe(true);
  });

  it('refuses URLs that are not http or https', async () => {
    for (const url of ['ftp://example.com/feed.xml', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', '']) {
      const error = await failure(fetchFeed(url));
      expect(error.code).toBe('invalid_argument');
    }
  });

  it('times out a slow origin with a clear message', async () => {
    const error = await failure(fetchFeed(`${origin.url}/slow`, {timeoutMs: 300}));
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toBe(`${origin.url}/slow timed out after 0.3 s`);
    expect(error.details).toMatchObject({reason: 'timeout'});
  });

  it('times out a body that stalls after the headers', async () => {
    const error = await failure(fetchFeed(`${origin.url}/slow-body`, {timeoutMs: 300}));
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toMatch(/timed out after 0\.3 s/);
  });

  it("stops when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const pending = fetchFeed(`${origin.url}/slow`, {signal: controller.signal});
    setTimeout(() => controller.abort(), 50);
    const error = await failure(pending);
    expect(error.message).toMatch(/cancelled/);
    expect(error.details).toMatchObject({reason: 'cancelled'});
  });

  it('names a redirect loop', async () => {
    const error = await failure(fetchFeed(`${origin.url}/loop/a`));
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toBe(`redirect loop at ${origin.url}/loop/a`);
  });

  it('gives up after the redirect limit', async () => {
    const error = await failure(fetchFeed(`${origin.url}/moved`, {maxRedirects: 1}));
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toMatch(/too many redirects \(more than 1\)/);
  });

  it('records a chain of permanent moves as the new URL', async () => {
    const result = await fetchFeed(`${origin.url}/moved`);
    expect(result.status).toBe('ok');
    expect(result.finalUrl).toBe(`${origin.url}/gen/moved.xml`);
    expect(result.permanentUrl).toBe(`${origin.url}/gen/moved.xml`);
  });

  it('does not record a temporary redirect, and stops a permanent chain at the first temporary hop', async () => {
    const temporary = await fetchFeed(`${origin.url}/temporary`);
    expect(temporary.finalUrl).toBe(`${origin.url}/gen/temporary.xml`);
    expect(temporary.permanentUrl).toBeNull();
    const mixed = await fetchFeed(`${origin.url}/moved-then-temporary`);
    expect(mixed.finalUrl).toBe(`${origin.url}/gen/temporary.xml`);
    expect(mixed.permanentUrl).toBe(`${origin.url}/temporary`);
  });

  it('refuses a redirect to another scheme', async () => {
    const error = await failure(fetchFeed(`${origin.url}/to-ftp`));
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toMatch(/redirects to a ftp URL/);
  });

  it('stops reading 10 MB of garbage at the body cap', async () => {
    const sized = await failure(fetchFeed(`${origin.url}/garbage`, {maxBytes: 1024 * 1024}));
    expect(sized.code).toBe('payload_too_large');
    expect(sized.message).toBe(`the response from ${origin.url}/garbage is larger than 1 MB`);
    const chunked = await failure(fetchFeed(`${origin.url}/garbage-chunked`, {maxBytes: 1024 * 1024}));
    expect(chunked.code).toBe('payload_too_large');
  });

  it('reads 10 MB of garbage under the default 15 MB cap (the parser rejects it, not the fetcher)', async () => {
    const result = await fetchFeed(`${origin.url}/garbage`);
    expect(result.body.length).toBe(10 * 1024 * 1024);
    expect(result.contentType).toBe('application/octet-stream');
  });

  it('turns 4xx and 5xx into feed_unreachable with the status', async () => {
    for (const status of [404, 410, 500]) {
      const error = await failure(fetchFeed(`${origin.url}/status/${status}`));
      expect(error.code).toBe('feed_unreachable');
      expect(error.message).toMatch(new RegExp(`^HTTP ${status} `));
      expect(error.details).toMatchObject({status, reason: 'http_status'});
    }
  });

  it('carries Retry-After of a 429 (seconds) and a 503 (HTTP date) in the error details', async () => {
    const limited = await failure(fetchFeed(`${origin.url}/status/429`));
    expect(limited.message).toMatch(/HTTP 429 Too Many Requests .*\(retry after 120 s\)/);
    expect(limited.details).toMatchObject({status: 429, retryAfterSeconds: 120});
    const unavailable = await failure(fetchFeed(`${origin.url}/status/503`));
    expect(unavailable.details).toMatchObject({status: 503, retryAfterSeconds: 90});
  });

  it('reads Cache-Control max-age and Expires into maxAgeSeconds', async () => {
    expect((await fetchFeed(`${origin.url}/cached.xml`)).maxAgeSeconds).toBe(3600);
    const expires = (await fetchFeed(`${origin.url}/expires.xml`)).maxAgeSeconds!;
    // Expires is two hours after the response's Date; a slow machine may lose a second.
    expect(expires).toBeGreaterThanOrEqual(7199);
    expect(expires).toBeLessThanOrEqual(7200);
    expect((await fetchFeed(`${origin.url}/gen/plain.xml`)).maxAgeSeconds).toBeNull();
  });

  it('reports a refused connection as unreachable', async () => {
    const closed = await startFeedOrigin();
    const url = `${closed.url}/feed.xml`;
    await closed.close();
    const error = await failure(fetchFeed(url, {timeoutMs: 5000}));
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toMatch(/^cannot reach http:\/\/127\.0\.0\.1:\d+\/feed\.xml: .*ECONNREFUSED/);
  });

  it('serves a feed of 10,000 items and an XML bomb as bytes, within the cap', async () => {
    const big = await fetchFeed(`${origin.url}/big.xml`);
    expect(big.body.toString().split('<item>').length - 1).toBe(10_000);
    const bomb = await fetchFeed(`${origin.url}/bomb.xml`);
    expect(bomb.body.length).toBeLessThan(2048);
    expect(bomb.body.toString()).toContain('<!ENTITY lol9');
  });
});
