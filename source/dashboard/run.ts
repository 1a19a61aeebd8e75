import blessed from 'blessed';
import type {Incident} from '../incidents/incidents.js';
import type {MetricsSnapshot, MetricsSource} from '../metrics/types.js';
import {WINDOWS, type TimeWindow} from './chart-data.js';
import type {DashboardFrame} from './frame.js';
import {collectMetrics, metricsSources} from '../metrics/collect.js';
import {DashboardScreen} from './screen.js';
import {frameFromSnapshots} from './frame-from-figures.js';

export interface DashboardOptions {
  stdin?: NodeJS.ReadStream;
  /** The terminal; the caller passes a colourless one for NO_COLOR. */
  stdout?: NodeJS.WriteStream;
  refreshMs?: number;
  /** The top incidents, as `workbench get-incidents` gets them; a string says why there are none. */
  incidents: () => Promise<Incident[] | string>;
}

const LONGEST = Math.max(...WINDOWS.map((window) => window.seconds)) * 1000;
// The incidents change slowly and cost a daemon round trip: every fifth refresh is enough.
const INCIDENTS_EVERY = 5;

/** Runs the full-screen dashboard until q, Esc or Ctrl-C; the terminal is given back as it was. */
export async function runDashboard(options: DashboardOptions): Promise<void> {
  const output = options.stdout ?? process.stdout;
  const screen = blessed.screen({
    input: options.stdin ?? process.stdin,
    output,
    smartCSR: true,
    fullUnicode: true,
    warnings: false,
    title: 'workbench dashboard',
    autoPadding: true,
  });
  const view = new DashboardScreen(screen);
  let window: TimeWindow = WINDOWS[0];
  const frames: DashboardFrame[] = [];
  let incidents: Incident[] | string = 'loading';
  let previous: MetricsSnapshot | undefined;
  // A server once charted is read again after it leaves the registry, so it shows as stopped.
  const known = new Map<string, MetricsSource>();
  let ticks = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const draw = () => view.draw({frames, incidents, window, now: frames.at(-1)?.at ?? Date.now()});
  const refresh = async () => {
    for (const source of metricsSources()) known.set(source.name, source);
    const snapshot = await collectMetrics({sources: [...known.values()]});
    frames.push(frameFromSnapshots(previous, snapshot));
    previous = snapshot;
    while (frames.length && snapshot.at - frames[0]!.at > LONGEST) frames.shift();
    if (ticks++ % INCIDENTS_EVERY === 0) incidents = await options.incidents().catch((error: Error) => error.message);
  };
  const loop = async () => {
    try {
      await refresh();
    } catch (error) {
      incidents = `refresh failed: ${(error as Error).message}`;
    }
    if (stopped) return;
    draw();
    timer = setTimeout(() => void loop(), options.refreshMs ?? 1000);
  };

  await new Promise<void>((resolve) => {
    const quit = () => {
      stopped = true;
      clearTimeout(timer);
      screen.destroy();
      resolve();
    };
    screen.key(['q', 'escape', 'C-c'], quit);
    screen.key(['1', '2', '3', 'w'], (_character, key) => {
      const chosen = WINDOWS.find((entry) => entry.key === key.full);
      window = chosen ?? WINDOWS[(WINDOWS.indexOf(window) + 1) % WINDOWS.length]!;
      draw();
    });
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.once(signal, quit);
    void loop();
  });
}
