// blessed-contrib ships no types: only what source/dashboard uses, as its README documents it.
declare module 'blessed-contrib' {
  import type {Widgets} from 'blessed';

  type Element = Widgets.BoxElement;
  type Factory<Options, Widget> = (options: Options) => Widget;

  interface LineSeries {
    title: string;
    x: string[];
    y: number[];
    style?: {line?: string};
  }
  interface LineWidget extends Element {
    setData(series: LineSeries[]): void;
  }
  interface BarWidget extends Element {
    setData(data: {titles: string[]; data: number[]}): void;
  }
  interface StackedBarWidget extends Element {
    setData(data: {barCategory: string[]; stackedCategory: string[]; data: number[][]}): void;
  }
  interface SparklineWidget extends Element {
    setData(titles: string[], datasets: number[][]): void;
  }
  interface GaugeWidget extends Element {
    setData(percent: number): void;
  }
  interface TableWidget extends Element {
    setData(data: {headers: string[]; data: string[][]}): void;
  }

  interface Grid {
    set<Options, Widget>(row: number, col: number, rowSpan: number, colSpan: number, factory: Factory<Options, Widget>, options: Options): Widget;
  }

  const contrib: {
    grid: new (options: {rows: number; cols: number; screen: Widgets.Screen; hideBorder?: boolean; color?: string}) => Grid;
    line: Factory<Record<string, unknown>, LineWidget>;
    bar: Factory<Record<string, unknown>, BarWidget>;
    stackedBar: Factory<Record<string, unknown>, StackedBarWidget>;
    sparkline: Factory<Record<string, unknown>, SparklineWidget>;
    gauge: Factory<Record<string, unknown>, GaugeWidget>;
    table: Factory<Record<string, unknown>, TableWidget>;
  };
  export default contrib;
  export type {LineSeries, LineWidget, BarWidget, StackedBarWidget, SparklineWidget, GaugeWidget, TableWidget, Grid};
}
