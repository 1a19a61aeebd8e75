import {randomBytes} from 'node:crypto';
import {mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSocialNetwork, type SocialNetwork} from '../../../fixtures/social/stand-in.js';
import {WorkbenchError} from '../../../source/core/errors.js';
import {buildReaderApp} from '../../../servers/reader/index.js';
import {createReaderService} from '../../../source/feeds/service/index.js';

// What the ingestor service promises about credentials beyond the round trip the service and API
// tests make: the key's folder, a key that no longer opens them (a store moved to another machine,
// a key file replaced), and messages that name a field without echoing what was given.

let dir: string;
let network: SocialNetwork;
const nullJudge = async () => ({judge: async () => ({judgements: new Map(), calls: 0, unjudged: 0, problem: null})});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-ingest-secrets-'));
  network = await startSocialNetwork({network: 'mastodon', posts: []});
});
afterAll(async () => {
  await network?.close();
  rmSync(dir, {recursive: true, force: true});
});

describe('ingestor credentials', () => {
  it('a key that cannot open the stored credentials: the status says so and how to fix it; editing them in makes the ingestor whole', async () => {
    const keyFile = join(dir, 'secrets', 'reader.key');
    const connection = join(dir, 'moved.sqlite');
    const SECRET = 'tok-moved-secret-5150';
    let reader = await createReaderService({connection, ingestors: {keyFile, openJudge: nullJudge}});
    const made = await reader.createIngestor({kind: 'kind_1', config: {instance: network.url, hashtag: 'rust', accessToken: SECRET}});
    expect(statSync(join(dir, 'secrets')).mode & 0o777).toBe(0o700);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile)).toHaveLength(32);
    await reader.close();

    // Another key in its place: what a copied database meets on another machine.
    writeFileSync(keyFile, randomBytes(32));
    reader = await createReaderService({connection, ingestors: {keyFile, openJudge: nullJudge}});
    try {
      const broken = await reader.getIngestor(made.id);
      expect(broken.status).toBe('error');
      expect(broken.statusMessage).toMatch(/cannot be decrypted .*workbench ingestors edit/);
      expect(broken.config).toEqual({instance: network.url, hashtag: 'rust', accessToken: '[redacted]'});
      const listed = JSON.stringify(await reader.listIngestors());
      expect(listed).toContain('workbench ingestors edit');
      expect(listed).not.toContain(SECRET);

      // Its cycle cannot run, and says the same.
      const refused = await reader.refresh(made.feedId).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(WorkbenchError);
      expect((refused as WorkbenchError).message).toMatch(/workbench ingestors edit/);

      // Sent back as [redacted], there is nothing to keep: the value must be given.
      await expect(reader.updateIngestor(made.id, {config: broken.config})).rejects.toThrow(/config\.accessToken is "\[redacted\]" but no accessToken is stored: give the value/);
      const mended = await reader.updateIngestor(made.id, {config: {instance: network.url, hashtag: 'rust', accessToken: 'tok-new-6060'}});
      expect(mended.status).toBe('pending');
      expect(mended.statusMessage).toBeNull();
      expect(mended.config.accessToken).toBe('[redacted]');
      await reader.refresh(made.feedId);
      expect(network.requests.at(-1)!.authorization).toBe('Bearer tok-new-6060');
    } finally {
      await reader.close();
    }
  });

  it('a field of the wrong type is named as such, not as missing, and what was given is never echoed', async () => {
    const logFile = join(dir, 'reader.log');
    const service = await createReaderService({connection: join(dir, 'types.sqlite'), ingestors: {keyFile: join(dir, 'types.key'), openJudge: nullJudge}});
    const app = buildReaderApp({service, logFile});
    const SECRET = 'tok-echo-secret-8080';
    try {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{instance: network.url, hashtag: 42}, /^config\.hashtag must be a string$/],
        [{instance: network.url, hashtag: 'rust', accessToken: [SECRET]}, /^config\.accessToken must be a string$/],
        [{instance: network.url, hashtag: 'rust', accessToken: {value: SECRET}}, /^config\.accessToken must be a string$/],
        [{hashtag: 'rust', accessToken: SECRET}, /^config\.instance is required for kind_1 \(Mastodon\)$/],
        [{instance: SECRET, hashtag: 'rust', accessToken: SECRET}, /^config\.instance: /],
        [{instance: network.url, hashtag: `${SECRET} x`, accessToken: SECRET}, /^config\.hashtag: /],
        [{instance: network.url, hashtag: 'rust', accessToken: SECRET, [SECRET.slice(0, 8)]: 1}, /^config has no field/],
      ];
      for (const [config, message] of cases) {
        for (const url of ['/api/v1/ingestors', '/api/v1/ingestors/test']) {
          const answer = await app.inject({method: 'POST', url, payload: {kind: 'kind_1', config}});
          expect(answer.statusCode, `${url} ${JSON.stringify(config)}`).toBe(400);
          const error = (answer.json() as {error: {code: string; message: string}}).error;
          expect(error.code).toBe('invalid_argument');
          expect(error.message).toMatch(message);
          expect(error.message).not.toContain(SECRET);
        }
      }
      expect(readFileSync(logFile, 'utf8')).not.toContain(SECRET);
    } finally {
      await app.close();
      await service.close();
    }
  });
});
