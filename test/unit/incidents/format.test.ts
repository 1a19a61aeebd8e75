import {describe, expect, it} from 'vitest';
import {daemonNotConnected, formatErrorResponse, proxyNotFound} from '../../../source/incidents/error-response.js';
import {compactMessage, formatErrorsCompact} from '../../../source/incidents/format.js';
import type {UnifiedError} from '../../../source/incidents/types.js';
import {NOW} from './records.js';

const errors: UnifiedError[] = [
  {
    source: 'browser:js',
    severity: 'error',
    category: 'TypeError',
    message: "Cannot read properties of undefined (reading 'map')",
    location: 'http://localhost:3000/src/List.tsx:8:21',
    page: 'http://localhost:3000/orders',
    count: 3,
    last_seen: '2026-11-20T11:59:55.000Z',
  },
  {
    source: 'process:api',
    severity: 'error',
    category: 'panic',
    message: 'runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation]',
    location: '/srv/api/main.go:41',
    page: '',
    count: 1,
    last_seen: '2026-11-20T11:57:00.000Z',
  },
  {
    source: 'proxy:http',
    severity: 'warning',
    category: '404 Not Found',
    message: 'GET /api/users/9 → user 9 not found',
    location: '',
    page: '',
    count: 12,
    last_seen: '2026-11-20T09:30:00.000Z',
  },
];

describe('formatErrorsCompact', () => {
  it('prints the spec compact layout', () => {
    expect(formatErrorsCompact(errors, NOW)).toBe(
      [
        '=== Errors (2) ===',
        '',
        '[browser:js] TypeError (3x, 5s ago)',
        "Cannot read properties of undefined (reading 'map')",
        '→ http://localhost:3000/src/List.tsx:8:21',
        'page: http://localhost:3000/orders',
        '',
        '[process:api] panic (1x, 3m ago)',
        'runtime error: invalid memory address or nil pointer dereference…',
        '→ /srv/api/main.go:41',
        '',
        '=== Warnings (1) ===',
        '',
        '[proxy:http] 404 Not Found (12x, 2h ago)',
        'GET /api/users/9 → user 9 not found',
      ].join('\n'),
    );
  });

  it('prints both headings when there is nothing to report', () => {
    expect(formatErrorsCompact([], NOW)).toBe('=== Errors (0) ===\n\n=== Warnings (0) ===');
  });

  it('cuts the message line to 200 characters', () => {
    const line = compactMessage(`Error: ${'a'.repeat(300)}`);
    expect(line).toHaveLength(200);
    expect(line.endsWith('…')).toBe(true);
    expect(compactMessage('b'.repeat(200))).toBe('b'.repeat(200));
  });
});

describe('get_errors error responses', () => {
  it('is an object with one error string', () => {
    expect(formatErrorResponse(proxyNotFound('shop', ['app']))).toEqual({error: 'proxy "shop" not found: running proxies: app'});
    expect(formatErrorResponse(daemonNotConnected('connect ENOENT /run/user/1000/workbench.sock'))).toEqual({
      error: 'daemon not connected: connect ENOENT /run/user/1000/workbench.sock',
    });
    expect(daemonNotConnected('x').code).toBe('daemon_not_connected');
  });
});
