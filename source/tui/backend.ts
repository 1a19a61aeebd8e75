import type {ReaderService} from '../feeds/contracts.js';
import type {ErrorQuery, UnifiedError} from '../incidents/types.js';
import type {ProcessInfo, StartRequest} from '../processes/types.js';

/** A script the user can start by name (from detect and .workbench.kdl). */
export interface ScriptChoice {
  name: string;
  command: string;
  source: string; // 'package.json', 'Makefile', '.workbench.kdl', ...
}

/**
 * What the TUI needs from the rest of workbench. The real one talks to the daemon over its
 * socket; tests may pass one backed by a daemon started in-process.
 */
export interface TuiBackend {
  listProcesses(): Promise<ProcessInfo[]>;
  /** Output ring of one process, ANSI kept (the pane renders colours). */
  output(id: string, tail?: number): Promise<string>;
  start(request: StartRequest): Promise<ProcessInfo>;
  stop(id: string): Promise<ProcessInfo>;
  restart(id: string): Promise<ProcessInfo>;
  getErrors(query: ErrorQuery): Promise<UnifiedError[]>;
  scripts(): Promise<ScriptChoice[]>;
  /** Short text for the status bar: daemon state, project, etc. */
  describe(): Promise<string>;
  /** The feed reader (a running `workbench serve reader`, else in-process on the local store). */
  reader(): Promise<ReaderService>;
}
