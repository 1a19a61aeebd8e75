import {describe, expect, it} from 'vitest';
import type {HttpTraffic, TrafficEntry} from '../../../source/devproxy/types.js';
import {detailLines} from '../../../source/tui/panes/proxy/detailLines.js';
import {execLines, shownPage, shownTraffic} from '../../../source/tui/panes/proxy/shown.js';
import {matchesClass, statusClass} from '../../../source/tui/panes/proxy/statusClass.js';
import {formatDuration, formatSize, shownPath} from '../../../source/tui/panes/proxy/TrafficRow.js';

const http = (fields: Partial<HttpTraffic> = {}): HttpTraffic => ({
  type: 'http',
  seq: 1,
  method: 'GET',
  url: '/api/items?page=2',
  status: 200,
  timestamp: Date.UTC(2026, 0, 2, 3, 4, 5),
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  durationMs: 12,
  requestHeaders: {accept: 'application/json'},
  responseHeaders: {'content-type': 'application/json'},
  requestBytes: 0,
  responseBytes: 2048,
  body: '{"items":[]}',
  ...fields,
});

describe('the Proxy pane’s parts', () => {
  it('classes statuses, a transport failure (status 0) apart from every answer', () => {
    expect([0, 101, 204, 304, 404, 503].map(statusClass)).toEqual(['failed', '1xx', '2xx', '3xx', '4xx', '5xx']);
    const entries: TrafficEntry[] = [
      http({seq: 1, status: 200}),
      http({seq: 2, status: 404}),
      http({seq: 3, status: 0, error: 'ECONNREFUSED'}),
      {type: 'error', seq: 4, message: 'boom', page: 'http://x/', timestamp: 0},
      {type: 'page', seq: 5, session: 's', url: 'http://x/', title: 't', event: 'load', timestamp: 0},
    ];
    expect(entries.filter((entry) => matchesClass(entry, 'errors')).map((entry) => entry.seq)).toEqual([2, 3, 4]);
    expect(entries.filter((entry) => matchesClass(entry, '4xx')).length).toBe(1);
    expect(entries.filter((entry) => matchesClass(entry, 'failed')).length).toBe(1);
    expect(entries.filter((entry) => matchesClass(entry, 'all')).length).toBe(5);
  });

  it('formats durations, sizes and paths for the columns', () => {
    expect([0, 12.4, 1234, 75_000].map(formatDuration)).toEqual(['0ms', '12ms', '1.23s', '1m15s']);
    expect([512, 2048, 15 * 1024, 3 * 1024 * 1024].map(formatSize)).toEqual(['512B', '2.0K', '15K', '3.0M']);
    expect(shownPath('http://127.0.0.1:3000/a?b=1')).toBe('/a?b=1');
    expect(shownPath('/x')).toBe('/x');
  });

  it('details a request: its line, status, timing, both header sets and both bodies', () => {
    const lines = detailLines(http({method: 'POST', status: 500, requestBody: 'name=a', body: 'line one\nline two'}), 80).map((line) => line.text);
    expect(lines[0]).toBe('POST /api/items?page=2');
    expect(lines[1]).toBe('500');
    expect(lines).toContain('Request headers');
    expect(lines.some((line) => line.startsWith('accept:') && line.endsWith('application/json'))).toBe(true);
    expect(lines).toContain('name=a');
    expect(lines.slice(lines.indexOf('Response body (first part)'))).toEqual(['Response body (first part)', 'line one', 'line two']);
    expect(lines.some((line) => line.includes('4bf92f3577b34da6a3ce929d0e0e4736'))).toBe(true);
  });

  it('wraps long body lines to the width instead of cutting them', () => {
    const lines = detailLines(http({body: 'x'.repeat(50)}), 20).map((line) => line.text);
    expect(lines.slice(-3)).toEqual(['x'.repeat(20), 'x'.repeat(20), 'x'.repeat(10)]);
  });

  it('strips escape sequences and controls from everything it draws (headers, bodies, titles, exec answers)', () => {
    const hostile = 'a\u001b]52;c;ZXZpbA==\u0007b\u001b[2Jc\u202ed';
    const shown = shownTraffic(http({url: `/${hostile}`, body: `${hostile}\nnext`, responseHeaders: {[`x-${hostile}`]: hostile}})) as HttpTraffic;
    const drawn = JSON.stringify([shown.url, shown.body, shown.responseHeaders]);
    expect(drawn).not.toMatch(/\\u001b|\\u0007|\u202e/);
    expect(shown.body).toBe('abcd\nnext');
    expect(shownPage({session: 's', url: hostile, title: hostile, loadedAt: 0, lastSeen: 0, errors: 0, failedRequests: 0, connected: true}).title).toBe('abcd');
    expect(execLines({session: 's', url: 'u', ok: true, value: {title: hostile}}).lines.join('\n')).not.toContain('\u001b');
  });

  it('formats an exec answer as indented JSON, and a thrown error as an error', () => {
    expect(execLines({session: 's1', url: 'http://p/', ok: true, value: {a: [1, 2]}})).toEqual({
      ok: true,
      heading: 'http://p/ (s1)',
      lines: ['{', '  "a": [', '    1,', '    2', '  ]', '}'],
    });
    expect(execLines({session: 's1', url: 'http://p/', ok: false, error: 'ReferenceError: nope is not defined'})).toMatchObject({
      ok: false,
      lines: ['ReferenceError: nope is not defined'],
    });
    expect(execLines({session: 's1', url: 'u', ok: true, value: undefined}).lines).toEqual(['undefined']);
  });
});
