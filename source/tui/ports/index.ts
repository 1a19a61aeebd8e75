import type {ReaderService} from '../../feeds/contracts.js';
import type {ToolContext} from '../../tools/registry-types.js';
import {createFeedsPort, type FeedsPort} from './feeds.js';
import {createIncidentsPort, type IncidentsPort} from './incidents.js';
import {createProcessesPort, type ProcessesPort} from './processes.js';
import {createStatusPort, type StatusPort} from './status.js';

/**
 * Everything the TUI reaches outside itself, one port per area. Each is built on the functions
 * the CLI and MCP faces call (tool handlers, the reader service), never a request of its own.
 */
export interface TuiPorts {
  processes: ProcessesPort;
  incidents: IncidentsPort;
  feeds: FeedsPort;
  status: StatusPort;
  close(): Promise<void>;
}

export interface PortOptions {
  /** How often a port with no pushed events looks again (default 500 ms). */
  pollMs?: number;
  /** The Feeds pane's wait between looks (default 5 s). */
  feedsPollMs?: number;
  /** How the reader is opened (default `openReader()`). */
  openReader?: () => Promise<ReaderService>;
}

/** The ports over a tool context (its cwd is the project). */
export function createPorts(context: ToolContext, options: PortOptions = {}): TuiPorts {
  const pollMs = options.pollMs ?? 500;
  const feeds = createFeedsPort({open: options.openReader, pollMs: options.feedsPollMs});
  return {
    processes: createProcessesPort(context, {pollMs}),
    incidents: createIncidentsPort(context, {pollMs}),
    feeds,
    // The description changes rarely (daemon state, project): look less often.
    status: createStatusPort(context.cwd, {pollMs: pollMs * 4}),
    close: () => feeds.close(),
  };
}
