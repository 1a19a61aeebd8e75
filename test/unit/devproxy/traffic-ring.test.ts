import {describe, expect, it} from 'vitest';
import {TrafficRing, type NewTrafficEntry} from '../../../source/devproxy/log/traffic-ring.js';

const http = (status: number, url: string, timestamp: number): NewTrafficEntry => ({
  type: 'http',
  method: 'GET',
  url,
  status,
  timestamp,
  traceId: '0'.repeat(31) + '1',
  durationMs: 1,
  requestHeaders: {},
  responseHeaders: {},
  requestBytes: 0,
  responseBytes: 0,
});

describe('the traffic ring', () => {
  it('holds at most its size, newest kept, numbered from 1 without gaps', () => {
    const ring = new TrafficRing(3);
    for (let index = 1; index <= 5; index++) ring.add(http(200, `/${index}`, index));
    expect([...ring.entries()].map((entry) => [entry.seq, (entry as {url: string}).url])).toEqual([
      [3, '/3'],
      [4, '/4'],
      [5, '/5'],
    ]);
    expect(ring.query({limit: 10}).map((entry) => entry.seq)).toEqual([3, 4, 5]);
    expect(ring.query({afterSeq: 4}).map((entry) => entry.seq)).toEqual([5]);
  });

  it('filters by type, status, path and time, and keeps the newest within the limit, oldest first', () => {
    const ring = new TrafficRing(100);
    ring.add(http(200, '/a', 1));
    ring.add(http(404, '/favicon.ico', 2));
    ring.add({type: 'diagnostic', level: 'error', category: 'ECONNREFUSED', message: 'down', timestamp: 3});
    ring.add(http(500, '/api/a', 4));
    ring.add(http(500, '/api/b', 5));
    expect(ring.query({types: ['diagnostic']}).map((entry) => entry.seq)).toEqual([3]);
    expect(ring.query({statusCodes: [404, 500]}).map((entry) => entry.seq)).toEqual([2, 4, 5]);
    expect(ring.query({statusCodes: [500], types: ['http', 'diagnostic']}).map((entry) => entry.seq)).toEqual([3, 4, 5]);
    expect(ring.query({path: '/api/'}).map((entry) => entry.seq)).toEqual([4, 5]);
    expect(ring.query({since: 4}).map((entry) => entry.seq)).toEqual([4, 5]);
    expect(ring.query({limit: 2}).map((entry) => entry.seq)).toEqual([4, 5]);
    expect(ring.query({limit: -3})).toEqual([]);
  });

  it('gives the inbox its records by kind, and tells listeners of each entry', () => {
    const ring = new TrafficRing(10);
    const seen: number[] = [];
    const off = ring.onEntry((entry) => seen.push(entry.seq));
    ring.add(http(500, '/x', 1));
    ring.add({type: 'error', message: 'TypeError: x', page: 'http://p/', timestamp: 2});
    ring.add({type: 'custom', level: 'warn', message: 'careful', page: 'http://p/', timestamp: 3});
    off();
    ring.add({type: 'page', session: 's', url: 'http://p/', title: '', event: 'load', timestamp: 4});
    expect(seen).toEqual([1, 2, 3]);
    const records = ring.records('p1');
    expect(records.id).toBe('p1');
    expect([records.http.length, records.js.length, records.custom.length, records.diagnostics.length]).toEqual([1, 1, 1, 0]);
  });
});
