// A crash between a digest's gathering and its write loses nothing: a reader killed with SIGKILL
// inside the digest's transaction leaves every status pending and no digest article; the next run
// writes exactly one digest, and a run after it none.
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, symlinkSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {build} from 'esbuild';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {makePosts, startSocialNetwork, type SocialNetwork} from '../../../fixtures/social/stand-in.js';
import {createReaderService} from '../../../source/feeds/service/index.js';
import {testDatabases} from '../../helpers/test-databases.js';

const repoRoot = resolve(import.meta.dirname, '../../..');
const databases = await testDatabases();
let dir: string;
let child: string;
let network: SocialNetwork;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-digest-crash-'));
  // Packages stay external and resolve through this link to the repo's node_modules.
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  child = join(dir, 'digest-crash-child.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'digest-crash-child.ts')],
    outfile: child,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  network = await startSocialNetwork({
    network: 'mastodon',
    posts: makePosts(4, {authors: ['alice', 'bob'], start: '2026-11-24T10:20:00Z'}).map((post) => ({...post, tags: ['rust'], boostedBy: undefined, replyTo: undefined})),
  });
});
afterAll(async () => {
  await network?.close();
  if (dir) rmSync(dir, {recursive: true, force: true});
});

/** Runs the child until it reports being inside the digest's transaction, then kills it with SIGKILL. */
function killMidDigest(args: string[]): Promise<{said: string; signal: NodeJS.Signals | null}> {
  return new Promise((done, fail) => {
    const running = spawn(process.execPath, [child, ...args], {cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: {...process.env, WORKBENCH_HOME: dir}});
    let said = '';
    let errors = '';
    running.stdout.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('mid-transaction')) running.kill('SIGKILL');
    });
    running.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    running.on('error', fail);
    running.on('exit', (_code, signal) => (said.includes('mid-transaction') ? done({said, signal}) : fail(new Error(`child ended without reaching the digest: ${said}${errors}`))));
  });
}

for (const database of databases) {
  describe.skipIf(database.unavailable !== null)(`SIGKILL during a digest on ${database.kind}`, () => {
    it('leaves the statuses pending and no article; the next run writes one digest, the one after none', async () => {
      const created = await database.create();
      const keyFile = join(dir, `${database.kind}.key`);
      let now = '2026-11-24T10:30:00Z';
      const open = () => createReaderService({connection: created.connection, deps: {now: () => new Date(now)}, ingestors: {keyFile}});
      try {
        const before = await open();
        const made = await before.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}, digestMode: 'hourly', filterThreshold: 0});
        expect(await before.runIngestor(made.id)).toMatchObject({added: 4});
        await before.close();

        now = '2026-11-24T11:00:05Z';
        const {said, signal} = await killMidDigest([created.connection, String(made.id), keyFile, now]);
        expect(signal).toBe('SIGKILL');
        expect(said).not.toContain('committed');

        const after = await open();
        try {
          expect(await after.getIngestor(made.id)).toMatchObject({pendingDigestCount: 4, nextDigestAt: '2026-11-24T11:00:00.000Z'});
          expect((await after.listArticles({feed_id: made.feedId})).articles).toHaveLength(0);
          expect((await after.getFeed(made.feedId)).unreadCount).toBe(0);
          expect(await after.dueIngestors(new Date(now), 10)).toContain(made.id);
          expect(await after.runIngestor(made.id)).toMatchObject({digests: 1});
          const articles = (await after.listArticles({feed_id: made.feedId})).articles;
          expect(articles.map((article) => article.title)).toEqual([expect.stringMatching(/\(4 posts\)$/)]);
          expect(await after.getIngestor(made.id)).toMatchObject({pendingDigestCount: 0, nextDigestAt: '2026-11-24T12:00:00.000Z'});
          expect(await after.runIngestor(made.id, {force: true})).toMatchObject({digests: 0, added: 0});
          expect((await after.getFeed(made.feedId)).unreadCount).toBe(1);
        } finally {
          await after.close();
        }
      } finally {
        await created.drop();
      }
    });
  });
}
