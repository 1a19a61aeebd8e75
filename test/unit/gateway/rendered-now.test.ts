// The hot path's memory (LocalGatewayService.renderedNow): a busy feed is never cold, a quiet
// one is read anew before it is served, a change shows at once.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, expect, it, vi} from 'vitest';
import {createGatewayService, type LocalGatewayService} from '../../../source/gateway/service.js';

let dir: string;
let clock = Date.UTC(2026, 10, 23, 12);
let service: LocalGatewayService;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-rendered-now-'));
  service = await createGatewayService({connection: join(dir, 'gateway.sqlite'), config: {feeds: []}, baseUrl: () => 'http://127.0.0.1:1', now: () => clock});
});
afterEach(async () => {
  await service.close();
  rmSync(dir, {recursive: true, force: true});
});

it('serves a kept feed a little past its time while reading it anew, and drops an older one', async () => {
  const channel = await service.createChannel({title: 'Busy'});
  await service.postItem(channel.id, channel.write_token, {title: 'first'});
  expect(service.renderedNow(channel.id, 'rss')).toBeUndefined();
  const warm = await service.render(channel.id, 'rss');
  const kept = service.renderedNow(channel.id, 'rss');
  expect(kept).toBe(warm);

  // Past its time but within one more: the same bytes at once, and a read behind them.
  clock += 1500;
  expect(service.renderedNow(channel.id, 'rss')).toBe(kept);
  await vi.waitFor(() => expect(service.renderedNow(channel.id, 'rss')).not.toBe(kept), {timeout: 5000});
  expect(service.renderedNow(channel.id, 'rss')?.rendered.etag).toBe(kept?.rendered.etag);

  // Long past: not served from memory (the server reads it before answering).
  clock += 10_000;
  expect(service.renderedNow(channel.id, 'rss')).toBeUndefined();
});

it('a post or a deletion is never hidden by the kept copy', async () => {
  const channel = await service.createChannel({title: 'Changing'});
  await service.postItem(channel.id, channel.write_token, {title: 'first'});
  await service.render(channel.id, 'rss');
  await service.postItem(channel.id, channel.write_token, {title: 'second'});
  expect(service.renderedNow(channel.id, 'rss')).toBeUndefined();

  const before = await service.render(channel.id, 'rss');
  await service.deleteChannel(channel.id, channel.write_token);
  expect(service.renderedNow(channel.id, 'rss')).toBeUndefined();
  expect(before?.rendered.body.toString()).toContain('second');
});
