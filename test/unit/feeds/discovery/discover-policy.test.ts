// Discovery under the address policy: a page reached at a public address leads to public
// addresses only. Real origin on 127.0.0.1, public names through an injected resolver.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {WorkbenchError} from '../../../../source/core/errors.js';
import {discoverFeeds} from '../../../../source/feeds/discovery/index.js';
import {sniffFeedFormat} from '../../../../source/feeds/discovery/sniff.js';
import {PUBLIC_ADDRESS, startOrigin, testNetwork, type TestOrigin} from '../../../helpers/test-network.js';

const RSS = '<?xml version="1.0"?><rss version="2.0"><channel><title>Local</title></channel></rss>';
const parse = (body: Buffer) => ({title: /<title>([^<]*)<\/title>/.exec(body.toString())?.[1] ?? '', format: sniffFeedFormat(body) ?? 'rss'});

let origin: TestOrigin;
let port: number;
beforeAll(async () => {
  origin = await startOrigin((request, response) => {
    const url = new URL(request.url ?? '/', 'http://origin');
    if (url.pathname === '/page.html') {
      const links = url.searchParams.getAll('link').map((href) => `<link rel="alternate" type="application/rss+xml" href="${href}">`);
      return void response.writeHead(200, {'content-type': 'text/html'}).end(`<!doctype html><html><head>${links.join('')}</head><body>page</body></html>`);
    }
    if (url.pathname === '/bare/') return void response.writeHead(200, {'content-type': 'text/html'}).end('<!doctype html><p>no links</p>');
    if (url.pathname.endsWith('.xml') || url.pathname.endsWith('/feed')) return void response.writeHead(200, {'content-type': 'application/rss+xml'}).end(RSS);
    response.writeHead(404).end();
  });
  port = origin.port;
});
afterAll(() => origin.close());

const network = () => testNetwork({'public.test': PUBLIC_ADDRESS, 'intranet.test': '10.0.0.5', 'rebind.test': [[PUBLIC_ADDRESS], ['127.0.0.1']]});
const page = (host: string, ...links: string[]) => `http://${host}:${port}/page.html?${links.map((link) => `link=${encodeURIComponent(link)}`).join('&')}`;

describe('discoverFeeds address policy', () => {
  it('drops links from a public page to private, loopback and metadata hosts, keeping the public ones', async () => {
    const feeds = await discoverFeeds(
      page(
        'public.test',
        `http://127.0.0.1:${port}/a.xml`,
        `http://2130706433:${port}/b.xml`,
        'http://169.254.169.254/latest/meta-data/',
        `http://intranet.test:${port}/c.xml`,
        `http://public.test:${port}/d.xml`,
      ),
      {parse, network: network()},
    );
    expect(feeds.map((feed) => feed.url)).toEqual([`http://public.test:${port}/d.xml`]);
  });

  it('refuses a public page whose only feed link is private, with the policy as the reason', async () => {
    const error = await discoverFeeds(page('public.test', `http://127.0.0.1:${port}/a.xml`), {parse, network: network()}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WorkbenchError);
    expect(error).toMatchObject({
      code: 'feed_unreachable',
      message: 'refused 127.0.0.1: it is a private or loopback address, which a redirect or link found at a public address may not lead to',
    });
  });

  it('keeps private links of a page the user typed at a private address (their own dev server)', async () => {
    const feeds = await discoverFeeds(page('127.0.0.1', `http://127.0.0.1:${port}/a.xml`), {parse});
    expect(feeds.map((feed) => feed.url)).toEqual([`http://127.0.0.1:${port}/a.xml`]);
  });

  it('probes the well-known paths of a public page under the same rule: a name rebinding to 127.0.0.1 is not probed', async () => {
    const net = network();
    const before = origin.hits.length;
    expect(await discoverFeeds(`http://rebind.test:${port}/bare/`, {parse, network: net})).toEqual([]);
    // The page itself was fetched; every probe after it was refused before connecting.
    expect(origin.hits.slice(before)).toEqual(['/bare/']);
    expect(net.lookups.length).toBeGreaterThan(1);
  });
});
