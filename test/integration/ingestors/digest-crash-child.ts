// Run by digest-crash.test.ts (bundled by esbuild): runs an ingestor whose digest boundary has
// passed, and stops dead inside the digest's transaction — the article inserted and its statuses
// flipped to digested, not committed — says so on stdout, and waits there to be killed with SIGKILL.
import {writeSync} from 'node:fs';
import {createReaderService} from '../../../source/feeds/service/index.js';

const [connection, ingestorId, keyFile, now] = process.argv.slice(2);
const reader = await createReaderService({connection, deps: {now: () => new Date(now!)}, ingestors: {keyFile}});
reader.store.db.on('query', (query: {sql: string; __knexTxId?: string}) => {
  // The digest's last write: the ingestor's next boundary, inside the transaction.
  if (query.__knexTxId && /update\s+["`]?ingestors["`]?\s+set\s+["`]?next_digest_at/i.test(query.sql)) {
    writeSync(1, 'mid-transaction\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  }
});
await reader.runIngestor(Number(ingestorId));
writeSync(1, 'committed\n');
await reader.close();
