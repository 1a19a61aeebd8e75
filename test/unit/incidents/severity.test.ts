import {describe, expect, it} from 'vitest';
import {queryErrors} from '../../../source/incidents/query.js';
import type {ErrorSources} from '../../../source/incidents/types.js';
import {alert, customLog, diagnostic, http, jsError, NOW, proxy, sources} from './records.js';

/** Each row of the severity mapping table of spec 1, checked through get_errors. */
function only(input: ErrorSources) {
  const errors = queryErrors(input, {}, NOW);
  expect(errors).toHaveLength(1);
  return errors[0];
}

describe('severity mapping', () => {
  it('process output with severity error is an error', () => {
    expect(
      only(sources({processAlerts: [alert({processId: 'web', category: 'TS2322', message: "Type 'string' is not assignable to type 'number'.", severity: 'error'})]})).severity,
    ).toBe('error');
  });

  it.each(['warning', 'info'] as const)('process output with severity %s is a warning', (severity) => {
    const entry = only(sources({processAlerts: [alert({processId: 'api', category: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432', severity})]}));
    expect(entry).toMatchObject({source: 'process:api', severity: 'warning'});
  });

  it('every browser runtime exception is an error', () => {
    expect(only(sources({proxies: [proxy('app', {js: [jsError({message: 'RangeError: Maximum call stack size exceeded'})]})]})).severity).toBe('error');
  });

  it.each([500, 502, 503, 599])('HTTP %i is an error', (status) => {
    expect(only(sources({proxies: [proxy('app', {http: [http({url: '/api/x', status})]})]}))).toMatchObject({source: 'proxy:http', severity: 'error'});
  });

  it.each([400, 401, 403, 404, 422, 499])('HTTP %i is a warning', (status) => {
    expect(only(sources({proxies: [proxy('app', {http: [http({url: '/api/x', status})]})]}))).toMatchObject({source: 'proxy:http', severity: 'warning'});
  });

  it('an HTTP connection or transport error is an error', () => {
    const entry = only(sources({proxies: [proxy('app', {http: [http({method: 'post', url: '/api/login', status: 0, error: 'connect ECONNREFUSED 127.0.0.1:4000'})]})]}));
    expect(entry).toMatchObject({source: 'proxy:http', severity: 'error', category: 'transport error', message: 'POST /api/login → connect ECONNREFUSED 127.0.0.1:4000'});
  });

  it('HTTP 2xx and 3xx answers are no errors at all', () => {
    const records = proxy('app', {http: [200, 201, 204, 307, 308].map((status) => http({url: '/api/x', status}))});
    expect(queryErrors(sources({proxies: [records]}), {}, NOW)).toEqual([]);
  });

  it.each([
    ['error', 'error'],
    ['warning', 'warning'],
  ] as const)('a proxy diagnostic at level %s is a %s', (level, severity) => {
    expect(only(sources({proxies: [proxy('app', {diagnostics: [diagnostic({level, message: 'upstream closed the connection'})]})]}))).toMatchObject({
      source: 'proxy:diagnostic',
      severity,
    });
  });

  it.each([
    ['error', 'error'],
    ['warn', 'warning'],
  ] as const)('a custom log at level %s is a %s', (level, severity) => {
    expect(only(sources({proxies: [proxy('app', {custom: [customLog({level, message: 'checkout failed'})]})]}))).toMatchObject({source: 'browser:custom', severity});
  });

  it('info diagnostics and info/log/debug custom logs stay out', () => {
    const records = proxy('app', {
      diagnostics: [diagnostic({level: 'info', message: 'proxy started'})],
      custom: (['info', 'log', 'debug'] as const).map((level) => customLog({level, message: 'hello'})),
    });
    expect(queryErrors(sources({proxies: [records]}), {}, NOW)).toEqual([]);
  });
});
