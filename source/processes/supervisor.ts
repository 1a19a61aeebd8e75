import {EventEmitter} from 'node:events';
import {existsSync, readSync, statSync} from 'node:fs';
import {constants as osConstants} from 'node:os';
import {resolve} from 'node:path';
import * as pty from 'node-pty';
import {WorkbenchError} from '../core/errors.js';
import type {ScannedAlert} from '../incidents/types.js';
import {stripAnsi} from '../text/ansi.js';
import {AlertStore} from './alert-store.js';
import {OutputRing} from './output-ring.js';
import {isQualified, makeKey, parseKey} from './project-key.js';
import {createAlertScanner} from './scanner/scanner.js';
import {TerminalLines} from './terminal-line.js';
import type {ProcessInfo, StartRequest} from './types.js';

const STOP_GRACE_MS = 3000;
/** A partial line (a prompt) is shown once output pauses this long; a redraw of it within that time replaces it. */
const LINE_IDLE_MS = 150;
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

interface Supervised {
  info: ProcessInfo;
  request: StartRequest & {cmd: string};
  ring: OutputRing;
  /** 1 for the first run under this id; a restart keeps the ring and counts on. */
  run: number;
  term?: pty.IPty;
  scanner: ReturnType<typeof createAlertScanner>;
  stopping: boolean;
  exited: Promise<void>;
}

export interface SupervisorEvents {
  /** `key`: the process's `<project>#<id>`; `end`: the ring's byte count once `data` is in it, so a reader of the ring can tell which events it already holds. */
  output: [key: string, data: string, end: number];
  change: [info: ProcessInfo];
}

/**
 * Owns the processes started in pseudo-terminals: their output rings, their alert scanners and
 * their lifecycle. Lives in the daemon; every face reaches it through the daemon's socket.
 * Processes belong to their project: every method but `start` takes the full key
 * `<projectRoot>#<id>` (project-key.ts; `locate` finds it from a project and a short id), and
 * alerts are stored under it, so two projects may each run `web`.
 */
export class Supervisor extends EventEmitter<SupervisorEvents> {
  readonly alerts: AlertStore;
  private readonly processes = new Map<string, Supervised>();

  constructor(options: {alerts?: AlertStore; ringBytes?: number} = {}) {
    super();
    // Every client connection listens; dozens are normal, not a leak.
    this.setMaxListeners(0);
    this.alerts = options.alerts ?? new AlertStore();
    this.ringBytes = options.ringBytes ?? 512 * 1024;
  }

  private readonly ringBytes: number;

  list(): ProcessInfo[] {
    return [...this.processes.values()].map((entry) => ({...entry.info, outputBytes: entry.ring.totalBytes}));
  }

  /** Every process's full key. */
  ids(): string[] {
    return [...this.processes.keys()];
  }

  /**
   * The key of the process `id` names as seen from `project`: its own process first, then one of
   * `shared` (the home's services, seen from every project). An id that names its project
   * (`/path#web`, as `proc list --all` shows it) is taken as is.
   */
  locate(project: string, id: string, shared: string[] = []): string {
    if (isQualified(id)) {
      if (this.processes.has(id)) return id;
      const {project: named, id: short} = parseKey(id);
      throw new WorkbenchError('not_found', `process "${short}" not found in project ${named}`);
    }
    for (const scope of [project, ...shared]) if (this.processes.has(makeKey(scope, id))) return makeKey(scope, id);
    const known = [...this.processes.keys()]
      .map(parseKey)
      .filter((key) => key.project === project || shared.includes(key.project))
      .map((key) => key.id);
    const where = project ? ` in project ${project}` : '';
    throw new WorkbenchError('not_found', `process "${id}" not found${where}${known.length ? ` (known: ${known.join(', ')})` : ' (no processes)'}`);
  }

  get(key: string): ProcessInfo {
    const entry = this.find(key);
    return {...entry.info, outputBytes: entry.ring.totalBytes};
  }

  output(key: string): string {
    return this.find(key).ring.text();
  }

  /** The ring's text with its byte count at this moment (`end` of the last output event it holds). */
  outputWithEnd(key: string): {text: string; end: number} {
    const {ring} = this.find(key);
    return {text: ring.text(), end: ring.totalBytes};
  }

  /** `project`: the caller's project root; the id is free or ended within that project only. */
  start(request: StartRequest & {project?: string}): ProcessInfo {
    const project = request.project ?? '';
    const cmd = request.cmd?.trim();
    if (!cmd) throw new WorkbenchError('invalid_argument', 'nothing to run: give a script name or --cmd "<shell command>"');
    const cwd = resolve(request.cwd ?? process.cwd());
    if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new WorkbenchError('invalid_argument', `working directory not found: ${cwd}`);
    const id = request.id ?? this.freeId(project, request.scriptName ?? firstWord(cmd));
    if (!ID_PATTERN.test(id)) throw new WorkbenchError('invalid_argument', `invalid process id "${id}": use letters, digits, ".", "_", ":" or "-" (at most 64)`);
    const key = makeKey(project, id);
    const existing = this.processes.get(key);
    if (existing && isLive(existing.info)) throw new WorkbenchError('conflict', `process "${id}" is already running (pid ${existing.info.pid}); stop or restart it`);
    const restarts = existing ? existing.info.restarts : 0;
    // The earlier run's alerts stay (the crash that made the user start it again), marked with their run; its output stays above a marker.
    const {project: _project, ...rest} = request;
    const entry = this.spawn(key, {...rest, cmd, cwd}, restarts, existing);
    return {...entry.info};
  }

  async stop(key: string): Promise<ProcessInfo> {
    const entry = this.find(key);
    if (isLive(entry.info) && entry.term) {
      entry.stopping = true;
      signalGroup(entry.term.pid, 'SIGTERM');
      const killer = setTimeout(() => signalGroup(entry.term!.pid, 'SIGKILL'), STOP_GRACE_MS);
      await entry.exited;
      clearTimeout(killer);
    }
    return this.get(key);
  }

  async restart(key: string): Promise<ProcessInfo> {
    const entry = this.find(key);
    // Its project folder may have been removed while it ran: it keeps running rather than die for nothing.
    const cwd = entry.request.cwd ?? process.cwd();
    if (!existsSync(cwd)) throw new WorkbenchError('invalid_argument', `working directory not found: ${cwd} (removed since ${entry.info.id} started; stop it instead)`);
    await this.stop(key);
    const next = this.spawn(key, entry.request, entry.info.restarts + 1, entry);
    return {...next.info};
  }

  /** Forgets an ended process (its output and alerts). */
  remove(key: string): void {
    const entry = this.find(key);
    if (isLive(entry.info)) throw new WorkbenchError('conflict', `process "${entry.info.id}" is running; stop it first`);
    this.processes.delete(key);
    this.alerts.clearProcess(key);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.processes.keys()].map((id) => this.stop(id).catch(() => undefined)));
  }

  private find(key: string): Supervised {
    const entry = this.processes.get(key);
    if (!entry) {
      const {project, id} = parseKey(key);
      return this.processes.get(this.locate(project, id))!;
    }
    return entry;
  }

  private freeId(project: string, base: string): string {
    const clean =
      base
        .replace(/[^A-Za-z0-9._:-]/g, '-')
        .replace(/^[^A-Za-z0-9]+/, '')
        .slice(0, 48) || 'proc';
    const taken = (id: string) => this.processes.has(makeKey(project, id));
    if (!taken(clean) || !isLive(this.processes.get(makeKey(project, clean))!.info)) return clean;
    for (let n = 2; ; n++) if (!taken(`${clean}-${n}`)) return `${clean}-${n}`;
  }

  /** Each process's current run (by key), for the inbox's older-run marks. */
  runs(): Record<string, number> {
    return this.alerts.currentRuns();
  }

  /** `previous`: the ended run under this id: the new run's output follows its output, marked; its alerts stay, marked with their run. */
  private spawn(key: string, request: StartRequest & {cmd: string}, restarts: number, previous?: Supervised): Supervised {
    const {project, id} = parseKey(key);
    const run = (previous?.run ?? 0) + 1;
    this.alerts.beginRun(key, run);
    const ring = previous?.ring ?? new OutputRing(this.ringBytes);
    if (previous) ring.mark(`restarted at ${new Date().toTimeString().slice(0, 8)} (run ${run})`);
    const info: ProcessInfo = {
      id,
      project,
      command: request.cmd,
      cwd: request.cwd ?? process.cwd(),
      scriptName: request.scriptName,
      status: 'running',
      startedAt: Date.now(),
      restarts,
      run,
      outputBytes: 0,
      alertCount: 0,
    };
    // `printedAt`: when the report's first line came, so a story joins the request it was printed for.
    const onAlert = (alert: ScannedAlert, printedAt = Date.now()) => {
      this.alerts.add(key, alert, printedAt);
      info.alertCount += 1;
    };
    // A stack printed by a server that keeps running ends when its output goes quiet.
    const scanner = createAlertScanner({onAlert, onBuildSuccess: () => this.alerts.clearCompileErrors(key)}, {idleMs: 400});
    let markExited!: () => void;
    const exited = new Promise<void>((done) => (markExited = done));
    const entry: Supervised = {info, request, ring, run, scanner, stopping: false, exited};
    this.processes.set(key, entry);

    let term: pty.IPty;
    try {
      term = pty.spawn('/bin/sh', ['-c', request.cmd], {
        name: 'xterm-256color',
        cols: request.cols ?? 120,
        rows: request.rows ?? 40,
        cwd: info.cwd,
        env: {...process.env, ...request.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1'} as Record<string, string>,
        encoding: null,
      });
    } catch (error) {
      info.status = 'exited';
      info.exitCode = 127;
      info.endedAt = Date.now();
      onAlert(launchFailure(request.cmd, String(error)));
      markExited();
      this.emit('change', {...info});
      return entry;
    }
    entry.term = term;
    info.pid = term.pid;
    // What a terminal shows (spinner frames replaced, not piled up) is what the ring, the views and the scanner read.
    const lines = new TerminalLines(
      (shown, at) => {
        const text = ring.write(shown);
        scanner.write(shown, at);
        if (this.listenerCount('output') > 0 && text !== '') this.emit('output', key, text, ring.totalBytes);
      },
      {idleMs: LINE_IDLE_MS},
    );
    const take = (data: string | Buffer) => lines.write(typeof data === 'string' ? Buffer.from(data) : data, Date.now());
    term.onData(take);
    drainBeforeDestroy(term, take);
    let ended = false;
    const finish = (exitCode: number, signal: number | undefined) => {
      if (ended) return;
      ended = true;
      lines.end();
      scanner.end();
      info.endedAt = Date.now();
      info.pid = undefined;
      if (entry.stopping) {
        info.status = 'stopped';
        info.exitCode = signal ? null : exitCode;
      } else if (signal) {
        info.status = 'crashed';
        info.exitCode = null;
        info.signal = signalName(signal);
        onAlert(crashAlert(request.cmd, info.signal));
      } else {
        info.status = 'exited';
        info.exitCode = exitCode;
        if (exitCode === 127 || exitCode === 126) onAlert(notFoundAlert(request.cmd, exitCode, ring.text()));
      }
      info.outputBytes = ring.totalBytes;
      markExited();
      this.emit('change', {...info});
    };
    // node-pty reports the exit once the pty's stream closed; data still queued in this turn of
    // the event loop goes first, so the last line is in the ring (and sent) before "exited".
    term.onExit(({exitCode, signal}) => setImmediate(() => finish(exitCode, signal)));
    this.emit('change', {...info});
    return entry;
  }
}

/**
 * node-pty destroys the pty's stream 200 ms after the child exits if the stream has not closed by
 * then (a busy daemon, a kernel slow to flush the pty): bytes the kernel still holds would be lost,
 * a fast printer's last lines with them. Read them first; the fd is non-blocking, so this stops
 * at EAGAIN (nothing left) or EIO (the other side closed and drained).
 */
function drainBeforeDestroy(term: pty.IPty, take: (chunk: Buffer) => void): void {
  const socket = (term as unknown as {_socket?: {destroy(...args: unknown[]): unknown; destroyed?: boolean}})._socket;
  const fd = (term as unknown as {_fd?: number})._fd;
  if (!socket || typeof fd !== 'number') return;
  const destroy = socket.destroy.bind(socket);
  socket.destroy = (...args: unknown[]) => {
    if (!socket.destroyed) {
      const buffer = Buffer.alloc(64 * 1024);
      for (let rounds = 0; rounds < 64; rounds++) {
        let read: number;
        try {
          read = readSync(fd, buffer, 0, buffer.length, null);
        } catch {
          break;
        }
        if (read <= 0) break;
        take(Buffer.from(buffer.subarray(0, read)));
      }
    }
    return destroy(...args);
  };
}

function isLive(info: ProcessInfo): boolean {
  return info.status === 'running' || info.status === 'starting';
}

function firstWord(cmd: string): string {
  const word = cmd.split(/\s+/).find((part) => part && !part.includes('=')) ?? 'proc';
  return word.split('/').pop() ?? 'proc';
}

/** The pty child leads its own session, so its whole tree is one process group. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

function signalName(signal: number): string {
  const match = Object.entries(osConstants.signals).find(([, value]) => value === signal);
  return match ? match[0] : `signal ${signal}`;
}

function notFoundAlert(cmd: string, exitCode: number, output: string): ScannedAlert {
  const said = output
    .split(/\r?\n/)
    .reverse()
    .find((line) => /not found|No such file|Permission denied|cannot execute/i.test(line));
  const why = exitCode === 127 ? 'command not found' : 'command not executable';
  return {
    severity: 'error',
    category: why,
    message: stripAnsi(said ?? '').trim() || `${why}: ${cmd}`,
    location: '',
    compile: false,
    raw: `$ ${cmd}\n${said ?? ''}\nexited ${exitCode}`,
  };
}

function crashAlert(cmd: string, signal: string): ScannedAlert {
  return {severity: 'error', category: 'crashed', message: `process killed by ${signal}: ${cmd}`, location: '', compile: false, raw: `$ ${cmd}\nkilled by ${signal}`};
}

function launchFailure(cmd: string, detail: string): ScannedAlert {
  return {severity: 'error', category: 'launch failed', message: `could not start "${cmd}": ${detail}`, location: '', compile: false, raw: detail};
}
