/** A supervised process as every face sees it (`proc list`, the Processes pane, the `proc` tool). */
export type ProcessStatus = 'starting' | 'running' | 'exited' | 'crashed' | 'stopped';

export interface ProcessInfo {
  /** The id inside its project (`web`); two projects may each have one. */
  id: string;
  /** The project root (realpath) the process belongs to; '' for a caller that named none. */
  project: string;
  /** The shell command line that was started. */
  command: string;
  cwd: string;
  /** Script name from detect/.workbench.kdl when started by name. */
  scriptName?: string;
  status: ProcessStatus;
  pid?: number;
  /** Exit code once ended (127: command not found); null when ended by a signal. */
  exitCode?: number | null;
  signal?: string;
  startedAt: number; // epoch ms
  endedAt?: number; // epoch ms
  restarts: number;
  /** 1 for the first start of this id, +1 at every start or restart of it; alerts carry the run they came from. */
  run: number;
  /** Bytes of output seen in all, and bytes the ring still holds. */
  outputBytes: number;
  alertCount: number;
}

export interface StartRequest {
  /** Shell command to run (`run --cmd`). */
  cmd?: string;
  /** Script name from detect/.workbench.kdl (`run <script_name>`). */
  scriptName?: string;
  id?: string;
  cwd?: string;
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
}
