import {spawnSync} from 'node:child_process';
import {cliEntry} from '../../core/entry.js';
import {handTerminalOver, type HandOffStreams} from './handOff.js';

export type DashboardOutcome = {opened: true; exitCode: number | null} | {opened: false; reason: string};

/**
 * `D`: the dashboard (`workbench dashboard`) in a child process that owns the terminal until q.
 * A child, not blessed inside this process: blessed and ink would both read stdin and write the
 * screen. spawnSync blocks this event loop, so ink reads no key and draws no frame meanwhile; its
 * state (focus, selections, filters) stays in memory untouched. The TUI's processes live in the
 * daemon, so nothing is lost while the TUI waits. Afterwards a resize event makes ink draw its
 * whole frame again, at the size the terminal has now.
 */
export function openDashboard(streams: HandOffStreams & {stdout: {emit?: (event: 'resize') => unknown}}, env: NodeJS.ProcessEnv = process.env): DashboardOutcome {
  const result = handTerminalOver(streams, () => spawnSync(process.execPath, [cliEntry(), 'dashboard'], {stdio: 'inherit', env}));
  streams.stdout.emit?.('resize');
  if (result.error) return {opened: false, reason: `could not start the dashboard: ${result.error.message}`};
  return {opened: true, exitCode: result.status};
}
