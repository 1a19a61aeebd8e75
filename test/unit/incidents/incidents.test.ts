import {describe, expect, it} from 'vitest';
import {formatIncidentsCompact, incidentId, queryIncidents} from '../../../source/incidents/incidents.js';
import {alert, customLog, diagnostic, http, jsError, NOW, proxy, sources} from './records.js';

function store() {
  return sources({
    processAlerts: [
      alert({
        processId: 'web',
        category: 'TS2322',
        message: "Type 'string' is not assignable to type 'number'.",
        location: 'src/cart.ts:14:7',
        compile: true,
        firstSeen: NOW - 600_000,
        lastSeen: NOW - 60_000,
        count: 3,
      }),
      alert({processId: 'web', category: 'Error', message: "Cannot find module './db'", severity: 'error', lastSeen: NOW - 120_000}),
    ],
    proxies: [
      proxy('app', {
        http: [
          http({url: '/api/cart', status: 500, body: 'boom', contentType: 'text/plain', timestamp: NOW - 2_000}),
          http({url: '/api/me', status: 401, contentType: 'application/json', body: '{"error":"unauthorized"}', timestamp: NOW - 4_000}),
          http({url: '/api/search', status: 0, error: 'socket hang up', timestamp: NOW - 8_000}),
        ],
        js: [jsError({message: 'ReferenceError: user is not defined', timestamp: NOW - 30_000})],
        custom: [customLog({level: 'error', message: 'payment widget failed', timestamp: NOW - 7_000}), customLog({level: 'warn', message: 'slow render', timestamp: NOW - 1_000})],
        diagnostics: [
          diagnostic({level: 'error', category: 'upstream', message: 'target http://localhost:4000 refused the connection', timestamp: NOW - 9_000}),
          diagnostic({level: 'warning', category: 'inject', message: 'no </body> to inject before', timestamp: NOW - 3_000}),
        ],
      }),
    ],
  });
}

describe('queryIncidents (get_incidents)', () => {
  it('labels every entry <severity>:<kind>, errors first then most recent', () => {
    expect(queryIncidents(store(), NOW).map((incident) => incident.label)).toEqual([
      'error:http_5xx',
      'error:console_error',
      'error:transport',
      'error:proxy_error',
      'error:js_error',
      'error:build_error',
      'error:process_error',
      'warning:console_warn',
      'warning:proxy_warning',
      'warning:http_4xx',
    ]);
  });

  it('gives each incident a stable short id and first/last seen times, fields in order', () => {
    const build = queryIncidents(store(), NOW).find((incident) => incident.kind === 'build_error')!;
    expect(Object.keys(build)).toEqual(['id', 'label', 'kind', 'severity', 'source', 'category', 'message', 'location', 'page', 'count', 'first_seen', 'last_seen']);
    expect(build).toMatchObject({source: 'process:web', count: 3, first_seen: '2026-11-20T11:50:00.000Z', last_seen: '2026-11-20T11:59:00.000Z'});
    expect(build.id).toMatch(/^[0-9a-f]{8}$/);
    expect(build.id).toBe(incidentId('process:web', 'TS2322', "Type 'string' is not assignable to type 'number'.", 'src/cart.ts:14:7'));
    expect(queryIncidents(store(), NOW + 5_000).find((incident) => incident.kind === 'build_error')!.id).toBe(build.id);
    expect(incidentId('process:web', 'TS2322', 'other', 'src/cart.ts:14:7')).not.toBe(build.id);
  });

  it('prints the compact inbox, each incident with its id', () => {
    const incidents = queryIncidents(store(), NOW).filter((incident) => ['http_5xx', 'js_error', 'http_4xx'].includes(incident.kind));
    const [server, page, auth] = incidents.map((incident) => incident.id);
    expect(formatIncidentsCompact(incidents, NOW)).toBe(
      [
        '=== Incidents (3) ===',
        '',
        `[error:http_5xx] proxy:http 500 Internal Server Error (1x, 2s ago) id ${server}`,
        'GET /api/cart → boom',
        '',
        `[error:js_error] browser:js ReferenceError (1x, 30s ago) id ${page}`,
        'user is not defined',
        'page: http://localhost:3000/',
        '',
        `[warning:http_4xx] proxy:http 401 Unauthorized (1x, 4s ago) id ${auth}`,
        'GET /api/me → unauthorized',
      ].join('\n'),
    );
  });
});

describe('near-duplicates (fingerprint grouping)', () => {
  const invoices = [18, 42, 66].map((n, index) =>
    alert({processId: 'billing', category: 'Error', message: `invoice ${n}: total is "0${12 + index}.50"`, location: 'src/invoice.ts:9:3', lastSeen: NOW - 30_000 + index * 1_000}),
  );

  it('groups messages that differ only in numbers and quoted values into one incident with its variants, newest first', () => {
    const [incident, ...rest] = queryIncidents(sources({processAlerts: invoices}), NOW);
    expect(rest).toEqual([]);
    expect(incident).toMatchObject({
      source: 'process:billing',
      message: 'invoice 66: total is "014.50"',
      count: 3,
      variant_count: 3,
      variants: ['invoice 66: total is "014.50"', 'invoice 42: total is "013.50"', 'invoice 18: total is "012.50"'],
    });
    expect(incident.id).toBe(incidentId('process:billing', 'Error', 'invoice 18: total is "012.50"', 'src/invoice.ts:9:3'));
    expect(formatIncidentsCompact([incident], NOW).split('\n').slice(2)).toEqual([
      `[error:process_error] process:billing Error (3x, 28s ago) id ${incident.id}`,
      'invoice 66: total is "014.50"',
      '→ src/invoice.ts:9:3',
      'variants (3): invoice 66: total is "014.50" | invoice 42: total is "013.50" | invoice 18: total is "012.50"',
    ]);
  });

  it('variants stamped alike (lines read in one chunk) are newest first by the order they came in', () => {
    const jobs = [24, 48, 72].map((n) => alert({processId: 'queue', category: 'Error', message: `job ${n} failed`, firstSeen: NOW - 10_000, lastSeen: NOW - 10_000}));
    const [incident] = queryIncidents(sources({processAlerts: jobs}), NOW);
    expect(incident).toMatchObject({message: 'job 72 failed', variants: ['job 72 failed', 'job 48 failed', 'job 24 failed']});
  });

  it('lists a few variants and says how many more', () => {
    const jobs = [24, 48, 72, 96, 120].map((n, index) => alert({processId: 'queue', category: 'Error', message: `job ${n} failed`, lastSeen: NOW - 10_000 + index}));
    const [incident] = queryIncidents(sources({processAlerts: jobs}), NOW);
    expect(incident).toMatchObject({count: 5, variant_count: 5, variants: ['job 120 failed', 'job 96 failed', 'job 72 failed']});
    expect(formatIncidentsCompact([incident], NOW)).toContain('variants (5): job 120 failed | job 96 failed | job 72 failed +2 more');
  });

  it('keeps apart what differs in source, category, location or words', () => {
    const incidents = queryIncidents(
      sources({
        processAlerts: [
          alert({processId: 'a', category: 'Error', message: 'job 1 failed'}),
          alert({processId: 'b', category: 'Error', message: 'job 2 failed'}),
          alert({processId: 'a', category: 'TypeError', message: 'job 3 failed'}),
          alert({processId: 'a', category: 'Error', message: 'job 4 failed', location: 'src/x.ts:1:1'}),
          alert({processId: 'a', category: 'Error', message: 'task 5 failed'}),
        ],
      }),
      NOW,
    );
    expect(incidents).toHaveLength(5);
    for (const incident of incidents) expect(incident.variants).toBeUndefined();
  });

  it('marks incidents from an earlier run of their process with that run, until they recur', () => {
    const crash = alert({processId: 'worker', category: 'crashed', message: 'process killed by SIGKILL: node worker.mjs', run: 1});
    const fresh = alert({processId: 'worker', category: 'TypeError', message: 'x is undefined', run: 2});
    const incidents = queryIncidents(sources({processAlerts: [crash, fresh], processRuns: {worker: 2}}), NOW);
    expect(incidents.find((incident) => incident.category === 'crashed')).toMatchObject({run: 1});
    expect(incidents.find((incident) => incident.category === 'TypeError')!.run).toBeUndefined();
    expect(formatIncidentsCompact(incidents, NOW)).toMatch(/\[error:process_error\] process:worker crashed \(1x, 5s ago\) run 1 id [0-9a-f]{8}\n/);
    expect(queryIncidents(sources({processAlerts: [{...crash, run: 2}], processRuns: {worker: 2}}), NOW)[0].run).toBeUndefined();
  });
});
