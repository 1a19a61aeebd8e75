// The text-format reader (source/metrics/parse-text.ts) on what prom-client writes, on the corners
// of the format (comments, escapes, +Inf, NaN, timestamps), and on answers that are not metrics.
import {Counter, Gauge, Histogram, Registry} from 'prom-client';
import {describe, expect, it} from 'vitest';
import {parseText, TextFormatError} from '../../../source/metrics/parse-text.js';

describe('parseText', () => {
  it('reads prom-client output back: families, types, help, labels, histogram buckets with +Inf', async () => {
    const registry = new Registry();
    const counter = new Counter({name: 'jobs_total', help: 'Jobs done.', labelNames: ['queue'], registers: [registry]});
    const gauge = new Gauge({name: 'backlog', help: 'Waiting "now"\\later\nsecond line', labelNames: ['path'], registers: [registry]});
    const histogram = new Histogram({name: 'wait_seconds', help: 'Wait.', buckets: [0.1, 1], registers: [registry]});
    counter.inc({queue: 'mail'}, 3);
    gauge.set({path: 'C:\\temp\n"x"'}, 7);
    histogram.observe(0.05);
    histogram.observe(0.5);
    histogram.observe(5);
    const families = parseText(await registry.metrics());
    expect(families.map((family) => [family.name, family.type])).toEqual([
      ['jobs_total', 'counter'],
      ['backlog', 'gauge'],
      ['wait_seconds', 'histogram'],
    ]);
    expect(families[0]!.help).toBe('Jobs done.');
    expect(families[0]!.samples).toEqual([{name: 'jobs_total', labels: {queue: 'mail'}, value: 3}]);
    expect(families[1]!.help).toBe('Waiting "now"\\later\nsecond line');
    expect(families[1]!.samples).toEqual([{name: 'backlog', labels: {path: 'C:\\temp\n"x"'}, value: 7}]);
    const buckets = families[2]!.samples.filter((sample) => sample.name === 'wait_seconds_bucket').map((sample) => [sample.labels.le, sample.value]);
    expect(buckets).toEqual([
      ['0.1', 1],
      ['1', 2],
      ['+Inf', 3],
    ]);
    expect(families[2]!.samples.find((sample) => sample.name === 'wait_seconds_count')?.value).toBe(3);
    expect(families[2]!.samples.find((sample) => sample.name === 'wait_seconds_sum')?.value).toBeCloseTo(5.55);
  });

  it('skips other comments and blank lines, reads NaN, ±Inf, exponents and timestamps, and keeps untyped samples', () => {
    const families = parseText(
      [
        '# a comment of no kind',
        '',
        '# TYPE up gauge',
        'up NaN',
        'free{} +Inf 1700000000000',
        'low -Inf',
        'odd Nan',
        'tiny 1.5e-3',
        '# HELP summary_seconds A summary.',
        '# TYPE summary_seconds summary',
        'summary_seconds{quantile="0.5"} 0.2',
        'summary_seconds_sum 4',
        'summary_seconds_count 10',
      ].join('\r\n'),
    );
    expect(families.map((family) => family.name)).toEqual(['up', 'free', 'low', 'odd', 'tiny', 'summary_seconds']);
    expect(Number.isNaN(families[0]!.samples[0]!.value)).toBe(true);
    expect(families[1]!.samples[0]).toEqual({name: 'free', labels: {}, value: Infinity});
    expect(families[1]!.type).toBe('untyped');
    expect(families[2]!.samples[0]!.value).toBe(-Infinity);
    expect(Number.isNaN(families[3]!.samples[0]!.value)).toBe(true);
    expect(families[4]!.samples[0]!.value).toBe(0.0015);
    expect(families[5]!.samples).toHaveLength(3);
  });

  it.each([
    ['HTML', '<!doctype html>\n<html><body>hello</body></html>', /line 1: expected a metric name/],
    ['JSON', '{"error":{"code":"not_found"}}', /line 1/],
    ['a value that is no number', 'up yes', /"yes" is no number/],
    ['a sample without value', 'up', /expected a value after up/],
    ['an unterminated label value', 'up{job="a} 1', /unterminated value/],
    ['an unknown escape', 'up{job="a\\tb"} 1', /unknown escape/],
    ['an unknown type', '# TYPE up meter', /"meter" is no metric type/],
    ['a bad timestamp', 'up 1 soon', /"soon" is no timestamp/],
  ])('refuses %s with the line it stopped at', (_what, text, message) => {
    expect(() => parseText(text)).toThrow(TextFormatError);
    expect(() => parseText(text)).toThrow(message);
  });
});
