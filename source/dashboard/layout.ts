/** Every chart the dashboard can show. */
export type ChartId = 'requests' | 'latency' | 'status' | 'alerts' | 'processes' | 'ring' | 'poller' | 'outbox' | 'incidents';

/** A chart's place on a 12×12 grid (blessed-contrib's grid: row, col, row span, col span). */
export interface Cell {
  chart: ChartId;
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
}

export type Layout = {kind: 'full' | 'reduced'; cells: Cell[]} | {kind: 'tiny'; message: string};

/** Below this the full grid's charts are too small to read (btop's own minimum is 80×24). */
export const FULL_MIN = {cols: 100, rows: 30};
/** Below this no chart fits at all: a braille line chart needs a few rows and a label. */
export const REDUCED_MIN = {cols: 40, rows: 12};

const cell = (chart: ChartId, row: number, col: number, rowSpan: number, colSpan: number): Cell => ({chart, row, col, rowSpan, colSpan});

const FULL: Cell[] = [
  cell('requests', 0, 0, 4, 6),
  cell('latency', 0, 6, 4, 6),
  cell('status', 4, 0, 4, 4),
  cell('alerts', 4, 4, 4, 4),
  cell('processes', 4, 8, 4, 4),
  cell('ring', 8, 0, 2, 2),
  cell('outbox', 10, 0, 2, 2),
  cell('poller', 8, 2, 4, 3),
  cell('incidents', 8, 5, 4, 7),
];

// The few charts that answer "is it healthy?": traffic, latency, errors and the top incidents.
const REDUCED: Cell[] = [cell('requests', 0, 0, 6, 6), cell('latency', 0, 6, 6, 6), cell('alerts', 6, 0, 6, 5), cell('incidents', 6, 5, 6, 7)];

/** The grid for a terminal of `cols`×`rows`: full, reduced below 100×30, a one-line message when even that does not fit. */
export function chooseLayout(cols: number, rows: number): Layout {
  if (cols >= FULL_MIN.cols && rows >= FULL_MIN.rows) return {kind: 'full', cells: FULL};
  if (cols >= REDUCED_MIN.cols && rows >= REDUCED_MIN.rows) return {kind: 'reduced', cells: REDUCED};
  return {kind: 'tiny', message: `${cols}x${rows}: too small, enlarge (q quits)`};
}
