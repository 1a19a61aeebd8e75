import {WorkbenchError} from '../core/errors.js';
import {createToolContext} from '../tools/context.js';
import {getIncidents} from '../tools/get-incidents.js';
import {runDashboard} from '../dashboard/run.js';
import {colourlessStream, noColorRequested} from '../tui/terminal/noColor.js';
import type {CommandResult} from './command-output.js';

// The table shows the top of the inbox, in its own order (errors first, then newest).
const TOP_INCIDENTS = 10;

/** `workbench dashboard`: the full-screen charts, with the top incidents from the daemon as `workbench get-incidents` gets them. */
export async function openDashboard(options: {noDaemon: boolean}): Promise<CommandResult> {
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    throw new WorkbenchError('invalid_argument', 'the dashboard needs a terminal; for scripts use `workbench metrics --json`');
  }
  const notices: string[] = [];
  const context = createToolContext({noDaemon: options.noDaemon, notice: (message) => notices.push(message)});
  try {
    // NO_COLOR: every write blessed makes goes out without colour sequences, as the TUI's frames do.
    const stdout = noColorRequested() ? colourlessStream(process.stdout) : process.stdout;
    await runDashboard({stdout, incidents: async () => (await getIncidents({limit: TOP_INCIDENTS}, context)).incidents});
  } finally {
    context.close();
  }
  return {stderr: notices.map((line) => line + '\n').join('')};
}
