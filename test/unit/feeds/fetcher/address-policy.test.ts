// The fetcher's address policy (source/net/address-policy.ts), against a real origin on
// 127.0.0.1 reached through an injected resolver: no packet leaves this host.
import {gzipSync} from 'node:zlib';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {WorkbenchError} from '../../../../source/core/errors.js';
import {fetchFeed} from '../../../../source/feeds/fetcher/index.js';
import {PUBLIC_ADDRESS, closedPort, startOrigin, testNetwork, type TestOrigin} from '../../../helpers/test-network.js';

const RSS = '<?xml version="1.0"?><rss version="2.0"><channel><title>Local</title></channel></rss>';

let origin: TestOrigin;
let port: number;
beforeAll(async () => {
  const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024));
  origin = await startOrigin((request, response) => {
    const url = new URL(request.url ?? '/', 'http://origin');
    if (url.pathname === '/to') return void response.writeHead(302, {location: url.searchParams.get('url')!}).end();
    if (url.pathname === '/hop') return void response.writeHead(302, {location: `http://rebind.test:${port}/feed.xml`}).end();
    if (url.pathname === '/feed.xml') return void response.writeHead(200, {'content-type': 'application/rss+xml'}).end(RSS);
    if (url.pathname === '/bomb.xml') return void response.writeHead(200, {'content-type': 'application/rss+xml', 'content-encoding': 'gzip'}).end(bomb);
    response.writeHead(404).end();
  });
  port = origin.port;
});
afterAll(() => origin.close());

const network = () =>
  testNetwork({
    'public.test': PUBLIC_ADDRESS,
    'dev.test': '127.0.0.1',
    'intranet.test': '10.0.0.5',
    'metadata.test': '169.254.169.254',
    'metadata6.test': 'fd00:ec2::254',
    'rebind.test': [[PUBLIC_ADDRESS], ['127.0.0.1']],
  });

async function failure(promise: Promise<unknown>): Promise<WorkbenchError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WorkbenchError);
  return error as WorkbenchError;
}

const hop = (target: string) => `http://public.test:${port}/to?url=${encodeURIComponent(target)}`;
const feedHits = () => origin.hits.filter((path) => path === '/feed.xml').length;

describe('fetchFeed address policy', () => {
  it('fetches a loopback URL the user typed, by address or by a name that resolves to it', async () => {
    const direct = await fetchFeed(`http://127.0.0.1:${port}/feed.xml`);
    expect(direct.body.toString()).toBe(RSS);
    expect(direct.viaPublic).toBe(false);
    const named = await fetchFeed(`http://dev.test:${port}/feed.xml`, {network: network()});
    expect(named.body.toString()).toBe(RSS);
  });

  it('follows a public redirect to a public address, and says the fetch went through one', async () => {
    const result = await fetchFeed(hop(`http://public.test:${port}/feed.xml`), {network: network()});
    expect(result.finalUrl).toBe(`http://public.test:${port}/feed.xml`);
    expect(result.viaPublic).toBe(true);
  });

  it('refuses a redirect from a public name to 127.0.0.1, without connecting to it', async () => {
    const before = feedHits();
    const error = await failure(fetchFeed(hop(`http://127.0.0.1:${port}/feed.xml`), {network: network()}));
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toBe('refused 127.0.0.1: it is a private or loopback address, which a redirect or link found at a public address may not lead to');
    expect(error.details).toMatchObject({reason: 'refused', url: `http://127.0.0.1:${port}/feed.xml`});
    expect(feedHits()).toBe(before);
  });

  it('refuses a redirect from a public name to 169.254.169.254', async () => {
    const error = await failure(fetchFeed(hop(`http://169.254.169.254:${port}/latest/meta-data/`), {network: network()}));
    expect(error.message).toBe('refused 169.254.169.254: it is a link-local or cloud metadata address, which is never fetched');
    expect(error.details).toMatchObject({reason: 'refused'});
  });

  it('refuses a redirect to 127.0.0.1 in any spelling: 2130706433, 0x7f.1, 017700000001, 127.1, [::ffff:127.0.0.1]', async () => {
    const before = feedHits();
    for (const host of ['2130706433', '0x7f.1', '017700000001', '127.1', '0x7f000001', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::127.0.0.1]', '0', 'localhost']) {
      const error = await failure(fetchFeed(hop(`http://${host}:${port}/feed.xml`), {network: testNetwork({'public.test': PUBLIC_ADDRESS, localhost: '127.0.0.1'})}));
      expect(error.message, host).toMatch(/^refused .*: it (is|resolves to) a private or loopback address/);
    }
    expect(feedHits()).toBe(before);
  });

  it('refuses a redirect to a name that resolves to a private or metadata address', async () => {
    expect((await failure(fetchFeed(hop(`http://intranet.test:${port}/feed.xml`), {network: network()}))).message).toBe(
      'refused intranet.test: it resolves to a private or loopback address, which a redirect or link found at a public address may not lead to',
    );
    expect((await failure(fetchFeed(hop(`http://metadata.test:${port}/`), {network: network()}))).message).toMatch(
      /^refused metadata\.test: it resolves to a link-local or cloud metadata address/,
    );
  });

  it('never fetches a metadata address, not even one the user typed, in any spelling or behind a name', async () => {
    for (const url of [
      `http://169.254.169.254:${port}/`,
      `http://2852039166:${port}/`,
      `http://[::ffff:169.254.169.254]:${port}/`,
      `http://[fd00:ec2::254]:${port}/`,
      `http://[fe80::1]:${port}/`,
      `http://metadata.test:${port}/`,
      `http://metadata6.test:${port}/`,
    ]) {
      const error = await failure(fetchFeed(url, {network: network()}));
      expect(error.message, url).toMatch(/link-local or cloud metadata address, which is never fetched$/);
    }
  });

  it('checks a rebinding name on every connection: public at the first lookup, 127.0.0.1 at the second', async () => {
    const net = network();
    const before = feedHits();
    const error = await failure(fetchFeed(`http://rebind.test:${port}/hop`, {network: net}));
    expect(error.message).toBe('refused rebind.test: it resolves to a private or loopback address, which a redirect or link found at a public address may not lead to');
    expect(net.lookups).toEqual(['rebind.test', 'rebind.test']);
    expect(feedHits()).toBe(before);
  });

  it('keeps the rule across the chain: typed loopback → public → loopback is refused', async () => {
    const error = await failure(fetchFeed(`http://127.0.0.1:${port}/to?url=${encodeURIComponent(hop(`http://127.0.0.1:${port}/feed.xml`))}`, {network: network()}));
    expect(error.details).toMatchObject({reason: 'refused'});
  });

  it('refuses a private URL found at a public address (allowPrivate: false)', async () => {
    const error = await failure(fetchFeed(`http://127.0.0.1:${port}/feed.xml`, {allowPrivate: false}));
    expect(error.details).toMatchObject({reason: 'refused'});
  });

  it('answers the same refusal whether the internal port is open or closed', async () => {
    const closed = await closedPort();
    const open = await failure(fetchFeed(hop(`http://127.0.0.1:${port}/feed.xml`), {network: network()}));
    const shut = await failure(fetchFeed(hop(`http://127.0.0.1:${closed}/feed.xml`), {network: network()}));
    expect(shut.message).toBe(open.message);
    expect(shut.code).toBe(open.code);
  });

  it('stops a gzip bomb at the cap once decompressed', async () => {
    const error = await failure(fetchFeed(`http://127.0.0.1:${port}/bomb.xml`));
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toBe(`the response from http://127.0.0.1:${port}/bomb.xml is larger than 15 MB once decompressed`);
    expect(error.details).toMatchObject({decompressed: true, maxBytes: 15 * 1024 * 1024});
  });
});
