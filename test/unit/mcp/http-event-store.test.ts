import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js';
import {describe, expect, it} from 'vitest';
import {BoundedEventStore, MAX_KEPT_EVENTS} from '../../../source/mcp/http/event-store.js';

const note = (n: number, pad = ''): JSONRPCMessage => ({jsonrpc: '2.0', method: 'notifications/message', params: {level: 'info', data: `${n}${pad}`}});

async function replay(store: BoundedEventStore, after: string): Promise<{stream: string; seen: string[]}> {
  const seen: string[] = [];
  const stream = await store.replayEventsAfter(after, {send: async (_id, message) => void seen.push(String((message as unknown as {params: {data: string}}).params.data))});
  return {stream, seen};
}

describe('the Streamable HTTP event store (resumability, issue 29 item 6)', () => {
  it('replays what came after an event on that event’s stream only, in order', async () => {
    const store = new BoundedEventStore();
    const first = await store.storeEvent('get', note(1));
    await store.storeEvent('post-7', note(2));
    await store.storeEvent('get', note(3));
    await store.storeEvent('get', note(4));
    expect(await store.getStreamIdForEventId(first)).toBe('get');
    expect(await replay(store, first)).toEqual({stream: 'get', seen: ['3', '4']});
  });

  it('keeps a bounded number of events and bytes, and says so for an event no longer kept or never made', async () => {
    const store = new BoundedEventStore();
    const first = await store.storeEvent('get', note(0));
    for (let i = 1; i <= MAX_KEPT_EVENTS; i++) await store.storeEvent('get', note(i));
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
    await expect(replay(store, first)).rejects.toThrow(/is not kept/);
    for (const garbage of ['', 'x', '99999999@get', '1@other', `${'9'.repeat(400)}@get`]) expect(await store.getStreamIdForEventId(garbage), garbage).toBeUndefined();

    const big = new BoundedEventStore();
    const early = await big.storeEvent('get', note(0, 'x'.repeat(600_000)));
    await big.storeEvent('get', note(1, 'x'.repeat(600_000)));
    expect(await big.getStreamIdForEventId(early)).toBeUndefined();
  });

  it('tells its owner the size of each event stored', async () => {
    const sizes: number[] = [];
    const store = new BoundedEventStore((bytes) => sizes.push(bytes));
    await store.storeEvent('get', note(1, 'abc'));
    expect(sizes).toEqual([JSON.stringify(note(1, 'abc')).length]);
  });
});
