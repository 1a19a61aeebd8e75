import {describe, expect, it} from 'vitest';
import {queryErrors} from '../../../source/incidents/query.js';
import {alert, http, jsError, NOW, proxy, sources} from './records.js';

describe('deduplication (rule 1)', () => {
  it('merges entries with equal source, category, message and location: counts summed, latest last_seen', () => {
    const body = '{"error":"database is locked"}';
    const records = [
      proxy('app', {
        http: [http({url: '/api/orders?page=1', status: 500, body, timestamp: NOW - 60_000}), http({url: '/api/orders?page=2', status: 500, body, timestamp: NOW - 2_000})],
      }),
      proxy('admin', {http: [http({url: 'http://localhost:8080/api/orders', status: 500, body, timestamp: NOW - 30_000})]}),
    ];
    const errors = queryErrors(sources({proxies: records}), {}, NOW);
    expect(errors).toEqual([
      {
        source: 'proxy:http',
        severity: 'error',
        category: '500 Internal Server Error',
        message: 'GET /api/orders → database is locked',
        location: '',
        page: '',
        count: 3,
        last_seen: new Date(NOW - 2_000).toISOString(),
      },
    ]);
  });

  it('sums the counts of process alerts that the store already merged', () => {
    const alerts = [
      alert({processId: 'web', category: 'TypeError', message: 'x is not a function', location: 'src/a.ts:1:1', count: 4, lastSeen: NOW - 9_000}),
      alert({processId: 'web', category: 'TypeError', message: 'x is not a function', location: 'src/a.ts:1:1', count: 2, lastSeen: NOW - 1_000}),
    ];
    expect(queryErrors(sources({processAlerts: alerts}), {}, NOW)).toMatchObject([{count: 6, last_seen: new Date(NOW - 1_000).toISOString()}]);
  });

  it('keeps entries apart when any one of source, category, message or location differs', () => {
    const base = {category: 'TypeError', message: 'x is not a function', location: 'src/a.ts:1:1'};
    const alerts = [
      alert({processId: 'web', ...base}),
      alert({processId: 'api', ...base}),
      alert({processId: 'web', ...base, category: 'ReferenceError'}),
      alert({processId: 'web', ...base, message: 'y is not a function'}),
      alert({processId: 'web', ...base, location: 'src/b.ts:2:2'}),
    ];
    expect(queryErrors(sources({processAlerts: alerts}), {}, NOW)).toHaveLength(5);
  });

  it('merges browser errors from different pages and shows the latest page', () => {
    const stack = 'TypeError: a\n    at f (http://localhost:3000/src/f.ts:1:2)';
    const js = [
      jsError({message: 'TypeError: a', stack, page: 'http://localhost:3000/cart', timestamp: NOW - 1_000}),
      jsError({message: 'TypeError: a', stack, page: 'http://localhost:3000/home', timestamp: NOW - 9_000}),
    ];
    expect(queryErrors(sources({proxies: [proxy('app', {js})]}), {}, NOW)).toMatchObject([{count: 2, page: 'http://localhost:3000/cart'}]);
  });
});

describe('an HTTP entry completed after it was first read', () => {
  it('is read again once its response arrives', () => {
    const entry = http({url: '/api/slow', status: 0, timestamp: NOW - 1_000});
    const input = sources({proxies: [proxy('app', {http: [entry]})]});
    expect(queryErrors(input, {}, NOW)[0].category).toBe('transport error');
    entry.status = 503;
    entry.contentType = 'application/json';
    entry.body = '{"detail":"maintenance window"}';
    expect(queryErrors(input, {}, NOW)[0]).toMatchObject({category: '503 Service Unavailable', message: 'GET /api/slow → maintenance window'});
  });
});
