import {describe, expect, it} from 'vitest';
import {queryErrors} from '../../../source/incidents/query.js';
import {alert, customLog, http, jsError, NOW, proxy, sources} from './records.js';

function store() {
  return sources({
    processIds: ['web', 'api', 'worker'],
    processAlerts: [
      alert({processId: 'web', category: 'TS2304', message: "Cannot find name 'usr'.", location: 'src/user.ts:3:10', compile: true, lastSeen: NOW - 40_000}),
      alert({processId: 'api', category: 'EADDRINUSE', message: 'listen EADDRINUSE: address already in use :::4000', severity: 'warning', lastSeen: NOW - 1_000}),
      alert({processId: 'api', category: 'panic', message: 'runtime error: index out of range [3] with length 3', location: '/srv/api/handlers.go:88', lastSeen: NOW - 20_000}),
    ],
    proxies: [
      proxy('app', {
        http: [
          http({url: '/api/users/9', status: 404, contentType: 'application/json', body: '{"message":"user 9 not found"}', timestamp: NOW - 3_000}),
          http({url: '/api/orders', method: 'POST', status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>', timestamp: NOW - 10_000}),
          http({url: '/', status: 200, timestamp: NOW - 500}),
        ],
        js: [
          jsError({
            message: 'TypeError: items.map is not a function',
            stack: 'TypeError: items.map is not a function\n    at List (http://localhost:3000/src/List.tsx:8:21)',
            timestamp: NOW - 5_000,
          }),
        ],
      }),
      proxy('docs', {custom: [customLog({level: 'warn', message: 'deprecated prop "size"', page: 'http://localhost:4000/guide', timestamp: NOW - 2_000})]}),
    ],
  });
}

describe('queryErrors (get_errors)', () => {
  it('sorts errors before warnings, most recent first within each (rule 5)', () => {
    expect(queryErrors(store(), {}, NOW).map((error) => `${error.severity} ${error.source} ${error.category}`)).toEqual([
      'error browser:js TypeError',
      'error proxy:http 502 Bad Gateway',
      'error process:api panic',
      'error process:web TS2304',
      'warning process:api EADDRINUSE',
      'warning browser:custom log warn',
      'warning proxy:http 404 Not Found',
    ]);
  });

  it('returns objects with exactly the spec fields in the spec order', () => {
    const [first] = queryErrors(store(), {limit: 1}, NOW);
    expect(Object.keys(first)).toEqual(['source', 'severity', 'category', 'message', 'location', 'page', 'count', 'last_seen']);
    expect(JSON.stringify(first)).toBe(
      '{"source":"browser:js","severity":"error","category":"TypeError","message":"items.map is not a function","location":"http://localhost:3000/src/List.tsx:8:21","page":"http://localhost:3000/","count":1,"last_seen":"2026-11-20T11:59:55.000Z"}',
    );
  });

  it('writes HTTP messages as "<METHOD> <path> → <extracted message>"', () => {
    const messages = queryErrors(store(), {proxy_id: 'app'}, NOW).map((error) => error.message);
    expect(messages).toContain('POST /api/orders → 502 Bad Gateway');
    expect(messages).toContain('GET /api/users/9 → user 9 not found');
  });

  it('drops warnings when include_warnings is false', () => {
    const errors = queryErrors(store(), {include_warnings: false}, NOW);
    expect(errors).toHaveLength(4);
    expect(errors.every((error) => error.severity === 'error')).toBe(true);
  });

  it('returns at most 25 entries by default and at most limit when given', () => {
    const many = sources({
      processAlerts: Array.from({length: 40}, (_, index) => alert({processId: 'web', category: 'Error', message: `failure ${index}`, lastSeen: NOW - index * 1000})),
    });
    expect(queryErrors(many, {}, NOW)).toHaveLength(25);
    const three = queryErrors(many, {limit: 3}, NOW);
    expect(three.map((error) => error.message)).toEqual(['failure 0', 'failure 1', 'failure 2']);
  });

  it.each([0, -5, 2.5, Number.NaN, '10', Number.POSITIVE_INFINITY])('rejects limit %s', (limit) => {
    expect(() => queryErrors(store(), {limit: limit as number}, NOW)).toThrowError(
      expect.objectContaining({code: 'invalid_argument', message: expect.stringMatching(/^invalid limit .*: use a positive whole number/)}),
    );
  });

  it('keeps only what happened since a duration or a timestamp', () => {
    const recent = queryErrors(store(), {since: '4s'}, NOW).map((error) => error.category);
    expect(recent).toEqual(['EADDRINUSE', 'log warn', '404 Not Found']);
    expect(queryErrors(store(), {since: '2026-11-20T11:59:50Z'}, NOW)).toHaveLength(5);
    expect(queryErrors(store(), {since: ''}, NOW)).toHaveLength(7);
  });

  it('rejects a since it cannot read', () => {
    expect(() => queryErrors(store(), {since: 'last tuesday'}, NOW)).toThrowError(
      expect.objectContaining({code: 'invalid_argument', message: 'invalid since "last tuesday": use a duration like 30s, 5m, 1h or an RFC 3339 timestamp'}),
    );
  });

  it('restricts to one process with process_id', () => {
    const errors = queryErrors(store(), {process_id: 'api'}, NOW);
    expect(errors.map((error) => error.source)).toEqual(['process:api', 'process:api']);
  });

  it('answers an empty list for a known process without alerts and not_found for an unknown one', () => {
    expect(queryErrors(store(), {process_id: 'worker'}, NOW)).toEqual([]);
    expect(() => queryErrors(store(), {process_id: 'ghost'}, NOW)).toThrowError(expect.objectContaining({code: 'not_found', message: 'process "ghost" not found'}));
  });

  it('restricts to one proxy with proxy_id', () => {
    const errors = queryErrors(store(), {proxy_id: 'docs'}, NOW);
    expect(errors).toEqual([
      {
        source: 'browser:custom',
        severity: 'warning',
        category: 'log warn',
        message: 'deprecated prop "size"',
        location: '',
        page: 'http://localhost:4000/guide',
        count: 1,
        last_seen: '2026-11-20T11:59:58.000Z',
      },
    ]);
  });

  it('shows a process and a proxy together when both are named', () => {
    const sourcesSeen = new Set(queryErrors(store(), {process_id: 'web', proxy_id: 'docs'}, NOW).map((error) => error.source));
    expect(sourcesSeen).toEqual(new Set(['process:web', 'browser:custom']));
  });

  it('names the running proxies when proxy_id is unknown', () => {
    expect(() => queryErrors(store(), {proxy_id: 'shop'}, NOW)).toThrowError(
      expect.objectContaining({code: 'proxy_not_found', message: 'proxy "shop" not found: running proxies: app, docs'}),
    );
    expect(() => queryErrors(sources(), {proxy_id: 'shop'}, NOW)).toThrowError('proxy "shop" not found: no proxy is running');
  });

  it('shows only proxy errors in legacy mode, where no process alerts exist (rule 7)', () => {
    const legacy = {...store(), processAlerts: [], processIds: undefined};
    expect(queryErrors(legacy, {}, NOW).every((error) => !error.source.startsWith('process:'))).toBe(true);
  });
});
