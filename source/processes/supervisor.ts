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
import {createAlertScanner} from './scanner/scanner.js';
import type {ProcessInfo, StartRequest} from './types.js';

const STOP_GRACE_MS = 3000;
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
  /** `end`: the ring's byte count once `data` is in it, so a reader of the ring can tell which events it already holds. */
  output: [id: string, data: string, end: number];
  change: [info: ProcessInfo];
}

/**
 * Owns the processes started in pseudo-terminals: their output rings, their alert scanners and
 * their lifecycle. Lives in the daemon; every face reaches it through the daemon's socket.
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

  ids(): string[] {
    return [...this.processes.keys()];
  }

  get(id: string): ProcessInfo {
    const entry = this.find(id);
    return {...entry.info, outputBytes: entry.ring.totalBytes};
  }

  output(id: string): string {
    return this.find(id).ring.text();
  }

  /** The ring's text with its byte count at this moment (`end` of the last output event it holds). */
  outputWithEnd(id: string): {text: string; end: number} {
    const {ring} = this.find(id);
    return {text: ring.text(), end: ring.totalBytes};
  }

  start(request: StartRequest): ProcessInfo {
    const cmd = request.cmd?.trim();
    if (!cmd) throw new WorkbenchError('invalid_argument', 'nothing to run: give a script name or --cmd "<shell command>"');
    const cwd = resolve(request.cwd ?? process.cwd());
    if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new WorkbenchError('invalid_argument', `working directory not found: ${cwd}`);
    const id = request.id ?? this.freeId(request.scriptName ?? firstWord(cmd));
    if (!ID_PATTERN.test(id)) throw new WorkbenchError('invalid_argument', `invalid process id "${id}": use letters, digits, ".", "_", ":" or "-" (at most 64)`);
    const existing = this.processes.get(id);
    if (existing && isLive(existing.info)) throw new WorkbenchError('conflict', `process "${id}" is already running (pid ${existing.info.pid}); stop or restart it`);
    const restarts = existing ? existing.info.restarts : 0;
    // The earlier run's alerts stay (the crash that made the user start it again), marked with their run; its output stays above a marker.
    const entry = this.spawn(id, {...request, cmd, cwd}, restarts, existing);
    return {...entry.info};
  }

  async stop(id: string): Promise<ProcessInfo> {
    const entry = this.find(id);
    if (isLive(entry.info) && entry.term) {
      entry.stopping = true;
      signalGroup(entry.term.pid, 'SIGTERM');
      const killer = setTimeout(() => signalGroup(entry.term!.pid, 'SIGKILL'), STOP_GRACE_MS);
      await entry.exited;
      clearTimeout(killer);
    }
    return this.get(id);
  }

  async restart(id: string): Promise<ProcessInfo> {
    const entry = this.find(id);
    await this.stop(id);
    const next = this.spawn(id, entry.request, entry.info.restarts + 1, entry);
    return {...next.info};
  }

  /** Forgets an ended process (its output and alerts). */
  remove(id: string): void {
    const entry = this.find(id);
    if (isLive(entry.info)) throw new WorkbenchError('conflict', `process "${id}" is running; stop it first`);
    this.processes.delete(id);
    this.alerts.clearProcess(id);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.processes.keys()].map((id) => this.stop(id).catch(() => undefined)));
  }

  private find(id: string): Supervised {
    const entry = this.processes.get(id);
    if (!entry) {
      const known = [...this.processes.keys()];
      throw new WorkbenchError('not_found', `process "${id}" not found${known.length ? ` (known: ${known.join(', ')})` : ' (no processes)'}`);
    }
    return entry;
  }

  private freeId(base: string): string {
    const clean =
      base
        .replace(/[^A-Za-z0-9._:-]/g, '-')
        .replace(/^[^A-Za-z0-9]+/, '')
        .slice(0, 48) || 'proc';
    if (!this.processes.has(clean) || !isLive(this.processes.get(clean)!.info)) return clean;
    for (let n = 2; ; n++) if (!this.processes.has(`${clean}-${n}`)) return `${clean}-${n}`;
  }

  /** Each process's current run, for the inbox's older-run marks. */
  runs(): Record<string, number> {
    return this.alerts.currentRuns();
  }

  /** `previous`: the ended run under this id: the new run's output follows its output, marked; its alerts stay, marked with their run. */
  private spawn(id: string, request: StartRequest & {cmd: string}, restarts: number, previous?: Supervised): Supervised {
    const run = (previous?.run ?? 0) + 1;
    this.alerts.beginRun(id, run);
    const ring = previous?.ring ?? new OutputRing(this.ringBytes);
    if (previous) ring.mark(`restarted at ${new Date().toTimeString().slice(0, 8)} (run ${run})`);
    const info: ProcessInfo = {
      id,
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
    const onAlert = (alert: ScannedAlert) => {
      this.alerts.add(id, alert);
      info.alertCount += 1;
    };
    // A stack printed by a server that keeps running ends when its output goes quiet.
    const scanner = createAlertScanner({onAlert, onBuildSuccess: () => this.alerts.clearCompileErrors(id)}, {idleMs: 400});
    let markExited!: () => void;
    const exited = new Promise<void>((done) => (markExited = done));
    const entry: Supervised = {info, request, ring, run, scanner, stopping: false, exited};
    this.processes.set(id, entry);

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
    const take = (data: string | Buffer) => {
      const chunk = typeof data === 'string' ? Buffer.from(data) : data;
      const text = ring.write(chunk);
      scanner.write(chunk);
      if (this.listenerCount('output') > 0 && text !== '') this.emit('output', id, text, ring.totalBytes);
    };
    term.onData(take);
    drainBeforeDestroy(term, take);
    let ended = false;
    const finish = (exitCode: number, signal: number | undefined) => {
      if (ended) return;
      ended = true;
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
