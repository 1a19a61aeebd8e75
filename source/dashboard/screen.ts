import blessed, {type Widgets} from 'blessed';
import contrib, {type Grid} from 'blessed-contrib';
import type {Incident} from '../incidents/incidents.js';
import {toTerminalLine} from '../text/terminal-safe.js';
import {alertBars, latencyChart, processSparklines, requestsChart, ringFill, statusMix, WINDOWS, type LineChart, type TimeWindow} from './chart-data.js';
import type {DashboardFrame} from './frame.js';
import {chooseLayout, type ChartId} from './layout.js';

export const NOTHING_RUNNING = 'nothing to chart: start workbench serve reader|gateway|graphql or a dev server';

/** What the screen draws: the frames of the last hour, the top incidents, a line of news. */
export interface DashboardView {
  frames: DashboardFrame[];
  incidents: Incident[] | string;
  window: TimeWindow;
  now: number;
}

type Widget = Widgets.BlessedElement & {setData?: (...args: never[]) => void};
const LINE_COLOURS = ['yellow', 'green', 'cyan', 'magenta', 'red', 'blue', 'white'];

const oneLine = (text: string, width: number) => {
  const line = toTerminalLine(text);
  return line.length > width ? line.slice(0, Math.max(0, width - 1)) + '…' : line;
};

/**
 * The blessed-contrib screen: widgets are made for the current size and made again on every
 * resize (contrib's canvases measure themselves once, when attached), so a resize never draws a
 * chart at its old size and a terminal too small for charts shows a line instead.
 */
export class DashboardScreen {
  private widgets = new Map<ChartId, Widget>();
  private tiny: Widgets.BoxElement | undefined;
  private status: Widgets.BoxElement | undefined;
  private view: DashboardView | undefined;

  constructor(private readonly screen: Widgets.Screen) {
    screen.on('resize', () => this.relayout());
    this.relayout();
  }

  relayout(): void {
    for (const child of [...this.screen.children]) child.destroy();
    this.widgets.clear();
    this.tiny = undefined;
    const width = Number(this.screen.width);
    const height = Number(this.screen.height);
    const layout = chooseLayout(width, height);
    if (layout.kind === 'tiny') {
      this.tiny = blessed.box({parent: this.screen, top: 0, left: 0, width: '100%', height: 1, content: oneLine(layout.message, width)});
    } else {
      // One row for the status line; the grid takes the rest.
      const area = blessed.box({parent: this.screen, top: 0, left: 0, width: '100%', height: height - 1});
      const grid = new contrib.grid({rows: 12, cols: 12, screen: area as unknown as Widgets.Screen});
      for (const cell of layout.cells) this.widgets.set(cell.chart, this.make(grid, cell.chart, cell.row, cell.col, cell.rowSpan, cell.colSpan));
      this.status = blessed.box({parent: this.screen, bottom: 0, left: 0, width: '100%', height: 1});
    }
    if (this.view) this.draw(this.view);
    else this.screen.render();
  }

  private make(grid: Grid, chart: ChartId, row: number, col: number, rowSpan: number, colSpan: number): Widget {
    const at = <O, W>(factory: (options: O) => W, options: O) => grid.set(row, col, rowSpan, colSpan, factory, options) as unknown as Widget;
    switch (chart) {
      case 'requests':
      case 'latency':
        return at(contrib.line, {label: chart, showLegend: false, minY: 0, xLabelPadding: 3, xPadding: 5, wholeNumbersOnly: false, style: {text: 'white', baseline: 'black'}});
      case 'status':
        return at(contrib.stackedBar, {label: 'status mix', barWidth: 6, barSpacing: 10, xOffset: 0, barBgColor: ['green', 'cyan', 'yellow', 'red']});
      case 'alerts':
        return at(contrib.bar, {label: 'errors/warnings per min', barWidth: 6, barSpacing: 12, xOffset: 0, maxHeight: 9});
      case 'processes':
        return at(contrib.sparkline, {label: 'cpu/memory per process', tags: true, style: {fg: 'blue', titleFg: 'white'}});
      case 'ring':
        return at(contrib.gauge, {label: 'alert ring', stroke: 'green', fill: 'white'});
      case 'poller':
        return at(contrib.bar, {label: 'feed poller', barWidth: 5, barSpacing: 8, xOffset: 0, maxHeight: 9});
      case 'outbox':
        return at(blessed.box, {label: 'outbox', content: ''});
      case 'incidents':
        return at(contrib.table, {label: 'top incidents', keys: false, interactive: false, columnSpacing: 2, columnWidth: [5, 6, 16, 60]});
    }
  }

  draw(view: DashboardView): void {
    this.view = view;
    const {window} = view;
    const latest = view.frames.at(-1);
    const width = Number(this.screen.width);
    if (this.tiny) {
      this.screen.render();
      return;
    }
    const servers = latest?.servers ?? [];
    for (const [chart, widget] of this.widgets) {
      try {
        this.drawChart(chart, widget, view, latest);
      } catch (error) {
        // A chart that cannot draw (a canvas too small) says so in its frame; the others go on.
        widget.setLabel(oneLine(`${chart}: ${String(error)}`, Number(widget.width) - 4));
      }
    }
    const news =
      servers.length === 0
        ? NOTHING_RUNNING
        : servers
            .filter((server) => server.state === 'garbage')
            .map((server) => `${server.source.name}: /metrics answered garbage (${server.error})`)
            .join('  |  ');
    const keys = `window ${window.label} [${WINDOWS.map((entry) => `${entry.key} ${entry.label}`).join(', ')}, w next]  |  q quit`;
    this.status?.setContent(oneLine(news ? `${news}  |  ${keys}` : keys, width));
    this.screen.render();
  }

  private drawChart(chart: ChartId, widget: Widget, view: DashboardView, latest: DashboardFrame | undefined): void {
    const {frames, window, now} = view;
    const labelWidth = Number(widget.width) - 4;
    const setData = widget.setData as unknown as (...args: unknown[]) => void;
    switch (chart) {
      case 'requests':
      case 'latency': {
        const data: LineChart = chart === 'requests' ? requestsChart(frames, window, now) : latencyChart(frames, window, now);
        widget.setLabel(oneLine(data.series.length ? data.label : `${data.label}: no server`, labelWidth));
        const series = data.series.length ? data.series : [{title: '', x: ['-1m', 'now'], y: [0, 0]}];
        setData.call(
          widget,
          series.map((line, index) => ({...line, style: {line: LINE_COLOURS[index % LINE_COLOURS.length]}})),
        );
        return;
      }
      case 'status': {
        const mix = statusMix(frames, window, now);
        widget.setLabel(oneLine(`status mix (${window.label}) 2xx/3xx/4xx/5xx${mix.barCategory.length ? '' : ': no server'}`, labelWidth));
        setData.call(widget, mix.barCategory.length ? mix : {barCategory: [''], stackedCategory: mix.stackedCategory, data: [[0, 0, 0, 0]]});
        return;
      }
      case 'alerts': {
        const bars = alertBars(frames, window, now);
        widget.setLabel(oneLine(`errors/warnings per min (${window.label})${bars ? '' : ': no data (the daemon exposes none)'}`, labelWidth));
        setData.call(widget, bars ?? {titles: [], data: []});
        return;
      }
      case 'processes': {
        const lines = processSparklines(frames, window, now);
        widget.setLabel(oneLine(`cpu/memory per process (${window.label})${lines.titles.length ? '' : ': no process'}`, labelWidth));
        setData.call(widget, lines.titles, lines.data);
        return;
      }
      case 'ring': {
        const fill = ringFill(latest);
        widget.setLabel(fill === undefined ? 'alert ring: no data' : `alert ring ${latest!.alertRing!.used}/${latest!.alertRing!.capacity}`);
        setData.call(widget, fill ?? 0);
        return;
      }
      case 'poller': {
        const poller = latest?.poller;
        widget.setLabel(
          oneLine(poller ? `feed poller per min: ${poller.fetches} fetches, ${poller.notModified} 304s, ${poller.failures} failures` : 'feed poller: no data', labelWidth),
        );
        setData.call(widget, {titles: ['fetch', '304', 'fail'], data: poller ? [poller.fetches, poller.notModified, poller.failures] : [0, 0, 0]});
        return;
      }
      case 'outbox':
        widget.setContent(latest?.outboxBacklog === undefined ? 'no outbox' : `backlog ${latest.outboxBacklog}`);
        return;
      case 'incidents': {
        const {incidents} = view;
        if (typeof incidents === 'string') {
          widget.setLabel(oneLine(`top incidents: ${incidents}`, labelWidth));
          setData.call(widget, {headers: ['sev', 'count', 'source', 'message'], data: []});
          return;
        }
        widget.setLabel(`top incidents (${incidents.length})`);
        setData.call(widget, {
          headers: ['sev', 'count', 'source', 'message'],
          data: incidents.map((entry) => [entry.severity === 'error' ? 'err' : 'warn', String(entry.count), oneLine(entry.source, 16), oneLine(entry.message, 200)]),
        });
        return;
      }
    }
  }
}
