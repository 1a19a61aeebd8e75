// Run by crash.test.ts (bundled by esbuild): refreshes a feed whose poll blocks half-way through
// its transaction, says so on stdout, and waits there to be killed with SIGKILL.
import {writeSync} from 'node:fs';
import {createReaderService} from '../../../source/feeds/service/index.js';
import type {ParsedItem} from '../../../source/feeds/types.js';

const [connection, feedId] = process.argv.slice(2);
const items: ParsedItem[] = Array.from({length: 3000}, (_, index) => ({guid: `crash-${index}`, title: `Crash ${index}`, content: `<p>${index}</p>`, categories: ['crash']}));
// Items go in oldest first, so item 1000 comes 2000th: 19 chunks of 100 are already inserted
// (uncommitted) when the 20th chunk reads it.
Object.defineProperty(items[1000], 'content', {
  get() {
    writeSync(1, 'mid-transaction\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
    return 'never reached';
  },
});

const service = await createReaderService({
  connection,
  deps: {
    fetchFeed: async (url) => ({
      status: 'ok',
      body: Buffer.from('<rss/>'),
      contentType: 'application/rss+xml',
      etag: '"after"',
      lastModified: null,
      finalUrl: url,
      permanentUrl: null,
      maxAgeSeconds: null,
      retryAfterSeconds: null,
    }),
    parseFeed: () => ({format: 'rss', title: 'After', items}),
    articleKey: (item) => item.guid!,
  },
});
await service.refresh(Number(feedId));
writeSync(1, 'committed\n');
await service.close();
