import {describe, expect, it} from 'vitest';
import {alertBars, latencyChart, POINTS, processSparklines, requestsChart, ringFill, statusMix, WINDOWS} from '../../../source/dashboard/chart-data.js';
import type {DashboardFrame, ServerFigures} from '../../../source/dashboard/frame.js';

const reader = {name: 'reader', kind: 'reader', url: 'http://127.0.0.1:1/metrics'} as const;
const graphql = {name: 'graphql', kind: 'graphql', url: 'http://127.0.0.1:2/metrics'} as const;
const NOW = 1_000_000_000;
const up = (rate: number, total: number): ServerFigures => ({
  source: reader,
  state: 'up',
  requestsPerSecond: rate,
  requestsTotal: total,
  latency: {p50: 1, p95: 5, p99: 9},
  status: {'2xx': rate, '3xx': 0, '4xx': 1, '5xx': 0},
});
const frame = (secondsAgo: number, servers: ServerFigures[], extra: Partial<DashboardFrame> = {}): DashboardFrame => ({
  at: NOW - secondsAgo * 1000,
  servers,
  processes: [],
  ...extra,
});
const [minute, quarter, hour] = WINDOWS;

describe('figures into chart data', () => {
  it('a line per server with POINTS points, the newest at the right, current figures in the label', () => {
    const frames = [frame(2, [up(4, 10)]), frame(1, [up(6, 16)]), frame(0, [up(8, 24)])];
    const chart = requestsChart(frames, minute, NOW);
    expect(chart.series).toHaveLength(1);
    expect(chart.series[0]!.y).toHaveLength(POINTS);
    expect(chart.series[0]!.y.slice(-3)).toEqual([4, 6, 8]);
    expect(chart.series[0]!.x.at(-1)).toBe('now');
    expect(chart.label).toContain('reader 8.0/s');
    expect(chart.label).toContain('total reader=24');
  });

  it('averages frames into wider points for the 15 m and 1 h windows, dropping older ones', () => {
    const frames = [frame(3700, [up(100, 1)]), frame(14, [up(2, 2)]), frame(1, [up(4, 3)])];
    expect(requestsChart(frames, quarter, NOW).series[0]!.y.at(-1)).toBe(3);
    expect(requestsChart(frames, hour, NOW).series[0]!.y.at(-1)).toBe(3);
    expect(requestsChart(frames, hour, NOW).series[0]!.y.reduce((a, b) => a + b)).toBe(3);
    expect(requestsChart(frames, minute, NOW).series[0]!.y.slice(-2)).toEqual([4, 0]);
  });

  it('three latency lines per server, p50/p95/p99', () => {
    const chart = latencyChart([frame(0, [up(1, 1)])], minute, NOW);
    expect(chart.series.map((line) => line.title)).toEqual(['reader p50', 'reader p95', 'reader p99']);
    expect(chart.label).toContain('p50 1.0 p95 5.0 p99 9.0 ms');
  });

  it('a server that went away is named stopped, keeps its history and shows no current figure', () => {
    const frames = [frame(1, [up(5, 5)]), frame(0, [{source: reader, state: 'stopped', error: 'ECONNREFUSED'}])];
    const chart = requestsChart(frames, minute, NOW);
    expect(chart.series[0]!.title).toBe('reader stopped');
    expect(chart.series[0]!.y.slice(-2)).toEqual([5, 0]);
    expect(chart.label).toBe('requests/s (1m): reader stopped');
    expect(statusMix(frames, minute, NOW).barCategory).toEqual(['reader stopped']);
  });

  it('the status mix sums each class per server over the window', () => {
    const other: ServerFigures = {source: graphql, state: 'up', status: {'2xx': 1, '3xx': 0, '4xx': 0, '5xx': 3}};
    const frames = [frame(120, [up(50, 1)]), frame(1, [up(2, 2), other]), frame(0, [up(3, 3), other])];
    expect(statusMix(frames, minute, NOW)).toEqual({
      barCategory: ['reader', 'graphql'],
      stackedCategory: ['2xx', '3xx', '4xx', '5xx'],
      data: [
        [5, 0, 2, 0],
        [2, 0, 0, 6],
      ],
    });
  });

  it('alerts per minute by source, the ring as a percentage, a sparkline pair per process', () => {
    const frames = [
      frame(1, [], {alertsPerMinute: {api: {errors: 6, warnings: 2}}, processes: [{name: 'reader', cpuPercent: 2, memoryMb: 50}]}),
      frame(0, [], {alertsPerMinute: {api: {errors: 2, warnings: 0}}, alertRing: {used: 125, capacity: 500}, processes: [{name: 'reader', cpuPercent: 4, memoryMb: 60}]}),
    ];
    expect(alertBars(frames, minute, NOW)).toEqual({titles: ['api err', 'api warn'], data: [4, 1]});
    expect(alertBars([frame(0, [])], minute, NOW)).toBeUndefined();
    expect(ringFill(frames.at(-1))).toBe(25);
    expect(ringFill(frames[0])).toBeUndefined();
    const lines = processSparklines(frames, minute, NOW);
    expect(lines.titles).toEqual(['reader cpu 4.0%', 'reader mem 60.0 MB']);
    expect(lines.data[0]!.slice(-2)).toEqual([2, 4]);
  });
});
