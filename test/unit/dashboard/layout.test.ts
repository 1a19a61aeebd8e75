import {describe, expect, it} from 'vitest';
import {chooseLayout} from '../../../source/dashboard/layout.js';

const charts = (cols: number, rows: number) => {
  const layout = chooseLayout(cols, rows);
  return layout.kind === 'tiny' ? [] : layout.cells.map((cell) => cell.chart);
};

describe('the dashboard layout per terminal size', () => {
  it('shows every chart from 100×30 up', () => {
    expect(chooseLayout(100, 30).kind).toBe('full');
    expect(charts(200, 60).sort()).toEqual(['alerts', 'incidents', 'latency', 'outbox', 'poller', 'processes', 'requests', 'ring', 'status']);
  });

  it('keeps the few most useful charts below 100×30', () => {
    expect(chooseLayout(99, 30).kind).toBe('reduced');
    expect(chooseLayout(100, 29).kind).toBe('reduced');
    expect(charts(80, 24)).toEqual(['requests', 'latency', 'alerts', 'incidents']);
  });

  it('gives a one-line message at tiny sizes, back to charts when larger', () => {
    const tiny = chooseLayout(20, 5);
    expect(tiny).toEqual({kind: 'tiny', message: expect.stringContaining('too small') as string});
    expect(chooseLayout(39, 24).kind).toBe('tiny');
    expect(chooseLayout(40, 12).kind).toBe('reduced');
  });

  it('fills a 12×12 grid without overlapping cells', () => {
    for (const [cols, rows] of [
      [200, 60],
      [80, 24],
    ] as const) {
      const layout = chooseLayout(cols, rows);
      if (layout.kind === 'tiny') throw new Error('expected charts');
      const used = new Set<string>();
      for (const cell of layout.cells) {
        for (let row = cell.row; row < cell.row + cell.rowSpan; row++) {
          for (let col = cell.col; col < cell.col + cell.colSpan; col++) {
            expect(row < 12 && col < 12).toBe(true);
            expect(used.has(`${row},${col}`)).toBe(false);
            used.add(`${row},${col}`);
          }
        }
      }
      expect(used.size).toBe(144);
    }
  });
});
