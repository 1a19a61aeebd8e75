import {Counter, type Registry} from 'prom-client';

/**
 * `workbench_log_lines_dropped_total{log}`: the lines a log file could not take (a full disk
 * above all: source/core/log-sink.ts), read from the sinks when scraped. `log` names the file
 * (`reader` for `logs/reader.log`, `daemon` for `daemon.log`), so 0 means a log that lost nothing.
 */
export function countDroppedLogLines(registry: Registry, log: string, sinks: readonly {readonly dropped: number}[]): void {
  new Counter({
    name: 'workbench_log_lines_dropped_total',
    help: 'Log lines not written because the file refused them (the disk full), by log.',
    labelNames: ['log'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc(
        {log},
        sinks.reduce((sum, sink) => sum + sink.dropped, 0),
      );
    },
  });
}
