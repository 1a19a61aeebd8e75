// The HTTP request tallies (source/metrics/http-tallies.ts) write what prom-client's own Counter and
// Histogram would write for the same requests: same families, types, help, samples and values.
import {Counter, Histogram, Registry} from 'prom-client';
import {describe, expect, it} from 'vitest';
import {parseText} from '../../../source/metrics/parse-text.js';
import {httpMetrics, LATENCY_BUCKETS} from '../../../source/metrics/registry.js';
import type {MetricFamily} from '../../../source/metrics/types.js';

const REQUESTS: Array<[string, string, string, number, number]> = [
  ['web', '*', 'GET', 200, 0.0003],
  ['web', '*', 'GET', 200, 0.004],
  ['web', '*', 'GET', 404, 0.0011],
  ['web', '*', 'POST', 500, 2],
  ['api', '*', 'GET', 200, 0.01],
  ['api', '*', 'GET', 200, 12], // beyond the last bucket: only +Inf, _count and _sum
  ['api', '*', 'GET', 200, 0.0005], // on a bound: counted in it (le is "less or equal")
];

/** Samples as a sorted list of `name{labels sorted} value`, so label order does not matter. */
function samples(families: MetricFamily[]): string[] {
  return families
    .flatMap((family) =>
      family.samples.map((sample) => {
        const labels = Object.entries(sample.labels)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, value]) => `${name}=${value}`)
          .join(',');
        return `${sample.name}{${labels}} ${sample.value.toPrecision(12)}`;
      }),
    )
    .sort();
}

describe('httpMetrics', () => {
  it('writes the families prom-client would write for the same requests', async () => {
    const ours = new Registry();
    const http = httpMetrics(ours, ['proxy']);
    const theirs = new Registry();
    const counter = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status code.',
      labelNames: ['proxy', 'route', 'method', 'status'],
      registers: [theirs],
    });
    const histogram = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to answer, by route pattern and method.',
      labelNames: ['proxy', 'route', 'method'],
      buckets: LATENCY_BUCKETS,
      registers: [theirs],
    });
    for (const [proxy, route, method, status, seconds] of REQUESTS) {
      http.observe({route, method, status}, seconds, {proxy});
      counter.inc({proxy, route, method, status: String(status)});
      histogram.observe({proxy, route, method}, seconds);
    }
    const mine = parseText(await ours.metrics());
    const reference = parseText(await theirs.metrics());
    expect(mine.map(({name, help, type}) => ({name, help, type}))).toEqual(reference.map(({name, help, type}) => ({name, help, type})));
    expect(samples(mine)).toEqual(samples(reference));
    expect(samples(mine)).toContain('http_requests_total{method=GET,proxy=api,route=*,status=200} 3.00000000000');
    expect(samples(mine)).toContain('http_request_duration_seconds_bucket{le=+Inf,method=GET,proxy=api,route=*} 3.00000000000');
    expect(samples(mine)).toContain('http_request_duration_seconds_bucket{le=0.0005,method=GET,proxy=api,route=*} 1.00000000000');
  });

  it('starts empty, and resetMetrics empties it until the next request', async () => {
    const registry = new Registry();
    const http = httpMetrics(registry);
    expect(parseText(await registry.metrics()).flatMap((family) => family.samples)).toEqual([]);
    http.observe({route: '/x', method: 'GET', status: 200}, 0.001);
    expect(parseText(await registry.metrics()).flatMap((family) => family.samples).length).toBeGreaterThan(0);
    registry.resetMetrics();
    expect(parseText(await registry.metrics()).flatMap((family) => family.samples)).toEqual([]);
    http.observe({route: '/x', method: 'GET', status: 200}, 0.001);
    const [requests] = parseText(await registry.metrics());
    expect(requests!.samples).toEqual([{name: 'http_requests_total', labels: {route: '/x', method: 'GET', status: '200'}, value: 1}]);
  });
});
