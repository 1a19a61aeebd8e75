import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {FastifyInstance} from 'fastify';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {makePosts, startSocialNetwork, type SocialNetwork} from '../../../fixtures/social/stand-in.js';
import {buildReaderApp} from '../../../servers/reader/index.js';
import {createReaderService, type LocalReaderService} from '../../../source/feeds/service/index.js';

// The ingestor endpoints over a real service on SQLite and the Mastodon stand-in.

let dir: string;
let network: SocialNetwork;
let service: LocalReaderService;
let app: FastifyInstance;
const SECRET = 'tok-api-secret-777';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-ingest-api-'));
  network = await startSocialNetwork({network: 'mastodon', posts: makePosts(20, {authors: ['alice']}).map((post) => ({...post, tags: ['rust']})), token: SECRET});
  service = await createReaderService({
    connection: join(dir, 'reader.sqlite'),
    ingestors: {keyFile: join(dir, 'reader.key'), openJudge: async () => ({judge: async () => ({judgements: new Map(), calls: 0, unjudged: 0, problem: null})})},
  });
  app = buildReaderApp({service, logFile: join(dir, 'reader.log')});
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await service?.close();
  await network?.close();
  rmSync(dir, {recursive: true, force: true});
});

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await app.inject({
    method,
    url: `/api/v1${url}`,
    headers,
    ...(body === undefined ? {} : typeof body === 'string' ? {payload: body, headers: {'content-type': 'application/json', ...headers}} : {payload: body as object}),
  });
  return {status: response.statusCode, body: response.body ? (JSON.parse(response.body) as Record<string, unknown>) : undefined, text: response.body};
}

describe('/api/v1/ingestors', () => {
  it('creates, lists, changes and removes an ingestor; credentials never come back', async () => {
    const created = await call('POST', '/ingestors', {kind: 'kind_1', config: {instance: network.url, list: '3', accessToken: SECRET}, digestMode: 'daily', filterThreshold: 0.4});
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      kind: 'kind_1',
      network: 'mastodon',
      digestMode: 'daily',
      filterThreshold: 0.4,
      llmEnabled: false,
      status: 'pending',
      pendingDigestCount: 0,
    });
    expect((created.body!.config as Record<string, unknown>).accessToken).toBe('[redacted]');
    const id = created.body!.id as number;

    const listed = await call('GET', '/ingestors');
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(SECRET);

    const patched = await call('PATCH', `/ingestors/${id}`, {fetchIntervalMin: 30, llmEnabled: true, digestMode: 'hourly'});
    expect(patched.body).toMatchObject({fetchIntervalMin: 30, llmEnabled: true, digestMode: 'hourly'});

    const tested = await call('POST', '/ingestors/test', {id});
    expect(tested.status).toBe(200);
    expect(tested.body!.fetched).toBe(20);
    const all = [...(tested.body!.kept as Array<{reasons: unknown[]; score: number}>), ...(tested.body!.dropped as Array<{reasons: unknown[]; score: number}>)];
    expect(all).toHaveLength(20);
    expect(all.every((status) => status.reasons.length > 0 && status.score >= 0 && status.score <= 1)).toBe(true);
    expect(tested.text).not.toContain(SECRET);

    expect((await call('DELETE', `/ingestors/${id}`)).status).toBe(204);
    expect((await call('GET', `/ingestors/${id}`)).status).toBe(404);
    expect(readFileSync(join(dir, 'reader.log'), 'utf8')).not.toContain(SECRET);
  });

  it('tests a definition without storing anything', async () => {
    const tested = await call('POST', '/ingestors/test', {kind: 'kind_1', config: {instance: network.url, list: '3', accessToken: SECRET}, filterThreshold: 0.6});
    expect(tested.status).toBe(200);
    expect((tested.body!.kept as unknown[]).length + (tested.body!.dropped as unknown[]).length).toBe(20);
    expect((await call('GET', '/ingestors')).body).toEqual([]);
    const wrong = await call('POST', '/ingestors/test', {kind: 'kind_1', config: {instance: network.url, list: '3', accessToken: 'not-it-1234'}});
    expect(wrong.status).toBe(401);
    expect(wrong.text).toMatch(/accessToken/);
    expect(wrong.text).not.toContain('not-it-1234');
  });

  it.each([
    ['an unknown kind', {kind: 'kind_7', config: {}}, 400, /kind must be kind_1/],
    ['a config missing what the kind needs', {kind: 'kind_2', config: {}}, 400, /exactly one of actor, feed/],
    [
      'a digest mode out of range',
      {kind: 'kind_1', config: {instance: 'https://m.example', hashtag: 'rust'}, digestMode: 'weekly'},
      400,
      /digestMode must be realtime, hourly or daily/,
    ],
    ['a threshold out of range', {kind: 'kind_1', config: {instance: 'https://m.example', hashtag: 'rust'}, filterThreshold: -1}, 400, /filterThreshold must be a number 0–1/],
    ['a threshold of the wrong type', {kind: 'kind_1', config: {instance: 'https://m.example', hashtag: 'rust'}, filterThreshold: 'high'}, 400, /filterThreshold/],
    ['an unknown field', {kind: 'kind_1', config: {instance: 'https://m.example', hashtag: 'rust'}, colour: 'red'}, 400, /body has no field "colour"/],
    ['no config', {kind: 'kind_1'}, 400, /config/],
    ['a config that is a string', {kind: 'kind_1', config: 'rust'}, 400, /config/],
  ])('refuses %s', async (_what, body, status, message) => {
    const answer = await call('POST', '/ingestors', body);
    expect(answer.status).toBe(status);
    expect((answer.body!.error as {message: string}).message).toMatch(message);
    expect(answer.text).not.toMatch(/at \w+ \(|node_modules/);
  });

  it('refuses garbage bodies, ids and patches without a 500', async () => {
    expect((await call('POST', '/ingestors', '{"kind": ')).status).toBe(400);
    expect((await call('PATCH', '/ingestors/abc', {llmEnabled: true})).status).toBe(400);
    expect((await call('PATCH', '/ingestors/999', {llmEnabled: true})).status).toBe(404);
    expect((await call('DELETE', '/ingestors/0')).status).toBe(400);
    expect((await call('POST', '/ingestors/test', {id: 12345})).status).toBe(404);
    const created = await call('POST', '/ingestors', {kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}});
    const id = created.body!.id as number;
    expect((await call('PATCH', `/ingestors/${id}`, {})).status).toBe(400);
    expect((await call('PATCH', `/ingestors/${id}`, {fetchIntervalMin: 100000})).body!.error).toMatchObject({code: 'invalid_argument'});
    expect((await call('PATCH', `/ingestors/${id}`, {kind: 'kind_2'})).status).toBe(400);
    // The ingestor's feed is removed with the ingestor, not on its own.
    const feedId = created.body!.feedId as number;
    const refused = await call('DELETE', `/feeds/${feedId}`);
    expect(refused.status).toBe(409);
    expect((await call('DELETE', `/ingestors/${id}`)).status).toBe(204);
  });

  it('refuses cross-site writes like every reader route', async () => {
    const answer = await call('POST', '/ingestors', {kind: 'kind_1', config: {instance: network.url, hashtag: 'rust'}}, {origin: 'https://evil.example'});
    expect(answer.status).toBe(403);
  });
});
