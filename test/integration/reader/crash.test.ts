// Each poll commits in one transaction: a reader killed with SIGKILL in the middle of a refresh
// leaves the feed exactly as the previous poll left it, and the database usable.
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, symlinkSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {build} from 'esbuild';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {createReaderService, type ReaderDeps} from '../../../source/feeds/service/index.js';
import type {ParsedItem} from '../../../source/feeds/types.js';
import {testDatabases} from '../../helpers/test-databases.js';

const repoRoot = resolve(import.meta.dirname, '../../..');
const databases = await testDatabases();
let dir: string;
let child: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-reader-crash-'));
  // Packages stay external and resolve through this link to the repo's node_modules.
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  child = join(dir, 'crash-child.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'crash-child.ts')],
    outfile: child,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
});
afterAll(() => {
  if (dir) rmSync(dir, {recursive: true, force: true});
});

const items = (count: number): ParsedItem[] => Array.from({length: count}, (_, index) => ({guid: `crash-${index}`, title: `Crash ${index}`, categories: ['crash']}));

function standIn(title: string, etag: string, feedItems: ParsedItem[]): Partial<ReaderDeps> {
  return {
    fetchFeed: async (url) => ({
      status: 'ok',
      body: Buffer.from('<rss/>'),
      contentType: 'application/rss+xml',
      etag,
      lastModified: null,
      finalUrl: url,
      permanentUrl: null,
      maxAgeSeconds: null,
      retryAfterSeconds: null,
    }),
    parseFeed: () => ({format: 'rss', title, items: feedItems}),
    articleKey: (item) => item.guid!,
  };
}

/** Runs the child until it reports being inside the transaction, then kills it with SIGKILL. */
function killMidTransaction(connection: string, feedId: number): Promise<{said: string; signal: NodeJS.Signals | null}> {
  return new Promise((done, fail) => {
    const running = spawn(process.execPath, [child, connection, String(feedId)], {cwd: dir, stdio: ['ignore', 'pipe', 'pipe']});
    let said = '';
    let errors = '';
    running.stdout.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('mid-transaction')) running.kill('SIGKILL');
    });
    running.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    running.on('error', fail);
    running.on('exit', (_code, signal) => (said.includes('mid-transaction') ? done({said, signal}) : fail(new Error(`child ended without reaching the transaction: ${errors}`))));
  });
}

for (const database of databases) {
  describe.skipIf(database.unavailable !== null)(`SIGKILL during a refresh on ${database.kind}`, () => {
    it('leaves nothing half-written: the previous poll stands and the next refresh stores everything', async () => {
      const created = await database.create();
      try {
        const before = await createReaderService({connection: created.connection, deps: standIn('Before', '"before"', items(2))});
        const subscribed = await before.subscribe('http://origin.test/feed.xml');
        const feedId = 'feed' in subscribed ? subscribed.feed.id : 0;
        await before.close();

        const {said, signal} = await killMidTransaction(created.connection, feedId);
        expect(signal).toBe('SIGKILL');
        expect(said).not.toContain('committed');

        const after = await createReaderService({connection: created.connection, deps: standIn('After', '"after"', items(3000))});
        try {
          expect(await after.getFeed(feedId)).toMatchObject({title: 'Before', unreadCount: 2, fetchStatus: 'ok'});
          expect((await after.store.db('feeds').where('id', feedId).first()).etag).toBe('"before"');
          expect(Number((await after.store.db('articles').count({n: '*'}))[0]!.n)).toBe(2);
          expect(await after.categories()).toEqual([{name: 'crash', count: 2}]);
          expect(await after.refresh(feedId)).toEqual({newArticles: 2998});
          expect(await after.getFeed(feedId)).toMatchObject({title: 'After', unreadCount: 3000});
        } finally {
          await after.close();
        }
      } finally {
        await created.drop();
      }
    });
  });
}
