import {spawn, type ChildProcess} from 'node:child_process';
import {createRequire} from 'node:module';
import type {Row, SqliteReaders, SqliteReadersState, SqliteReadRequest} from '../../types.js';
import {READER_PROCESS_SOURCE} from './reader-process.js';

type ReadOutcome = Awaited<ReturnType<SqliteReaders['read']>>;

/** A statement the pool ended before its answer: its deadline passed, or its client went away. */
export class StatementCut extends Error {
  constructor(readonly reason: 'deadline' | 'abandoned') {
    super(reason === 'deadline' ? 'the statement ran past its deadline' : 'the client went away');
    this.name = 'StatementCut';
  }
}

interface Job extends SqliteReadRequest {
  resolve(outcome: ReadOutcome): void;
  reject(error: Error): void;
  onAbort?: () => void;
}

interface Reader {
  child: ChildProcess;
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
  /** Why the pool killed it (its job is answered so once the process is gone). */
  cut?: StatementCut['reason'];
  gone: boolean;
}

type ReaderMessage = {ready: true} | {failed: string} | {rows: Row[]} | {write: true} | {error: {name?: string; message: string; code?: string}};

// The better-sqlite3 the service itself loads, handed to each reader by path (its `-e` program resolves nothing of its own).
const DRIVER_ENTRY = createRequire(import.meta.url).resolve('better-sqlite3');

// Every reader process alive in this process: killed when it exits without closing its pools (a CLI's process.exit), never left behind.
const alive = new Set<ChildProcess>();
let exitHooked = false;
function track(child: ChildProcess): void {
  alive.add(child);
  child.once('exit', () => alive.delete(child));
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const each of alive) each.kill('SIGKILL');
  });
}

/** Bindings as knex's better-sqlite3 client sends them (it binds neither a Date nor a boolean). */
function driverBindings(bindings: readonly unknown[]): unknown[] {
  return bindings.map((binding) => (binding instanceof Date ? binding.valueOf() : typeof binding === 'boolean' ? Number(binding) : binding));
}

/** A driver error from a reader, shaped as better-sqlite3 throws it on this thread (name SqliteError, its code), so errors read alike on either path. */
function driverError(error: {name?: string; message: string; code?: string}): Error {
  return Object.assign(new Error(error.message), {name: error.name ?? 'SqliteError', ...(error.code ? {code: error.code} : {})});
}

/**
 * Read statements on a SQLite file, each run in a process of its own so that none blocks the
 * service's thread (better-sqlite3 is synchronous: one long SELECT on the service's connection
 * freezes every request and /_workbench/health). Up to `size` reader processes: one started with
 * the pool, more when reads wait for one (a start costs ~100–250 ms, paid once per process), each with its own read-only
 * connection; a statement past its deadline, or whose client went away, ends by SIGKILL of its
 * process — the only way to stop a better-sqlite3 statement — and a fresh one replaces it when a
 * read needs it.
 */
export class SqliteReaderPool implements SqliteReaders {
  private readonly readers = new Set<Reader>();
  private readonly waiting: Job[] = [];
  private closed = false;

  constructor(
    private readonly file: string,
    readonly size: number,
  ) {}

  read(request: SqliteReadRequest): Promise<ReadOutcome> {
    if (this.closed) return Promise.reject(new Error('the SQLite readers are closed'));
    if (request.signal?.aborted) return Promise.reject(new StatementCut('abandoned'));
    return new Promise<ReadOutcome>((resolve, reject) => {
      const job: Job = {...request, bindings: driverBindings(request.bindings), resolve, reject};
      if (request.signal) {
        job.onAbort = () => this.abandon(job);
        request.signal.addEventListener('abort', job.onAbort, {once: true});
      }
      this.waiting.push(job);
      this.dispatch();
    });
  }

  /**
   * Starts the first reader and waits until it has the file open: the first read then waits for
   * no process start (a subscription's row read, a first query), and a file the readers cannot
   * open is said when the service opens, not at its first query.
   */
  async prestart(): Promise<void> {
    if (this.closed || this.readers.size > 0) return;
    const {child} = this.start();
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.off('error', done);
        if (error) reject(error);
        else resolve();
      };
      const onMessage = (message: ReaderMessage) => {
        if ('ready' in message) done();
        else if ('failed' in message) done(new Error(message.failed));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => done(new Error(`the reader process ended (${signal ?? `exit code ${code}`})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.once('error', done);
    });
  }

  state(): SqliteReadersState {
    let running = 0;
    for (const reader of this.readers) if (reader.job) running++;
    return {size: this.size, processes: this.readers.size, running, waiting: this.waiting.length};
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) this.settle(job, () => job.reject(new Error('the SQLite readers are closed')));
    const exits = [...this.readers].map((reader) => new Promise<void>((resolve) => (reader.gone ? resolve() : reader.child.once('exit', () => resolve()))));
    for (const reader of this.readers) reader.child.kill('SIGKILL');
    await Promise.all(exits);
  }

  /** Gives waiting reads to idle readers, and starts readers (up to `size`) for those left. */
  private dispatch(): void {
    if (this.closed) return;
    let starting = 0;
    for (const reader of this.readers) {
      if (!reader.ready && !reader.gone) starting++;
      else if (reader.ready && !reader.job && !reader.gone && this.waiting.length > 0) this.send(reader, this.waiting.shift()!);
    }
    for (let missing = this.waiting.length - starting; missing > 0 && this.readers.size < this.size; missing--) this.start();
  }

  private start(): Reader {
    const env = {...process.env};
    // The service's own node flags (an inspector port, a loader) are not the reader's.
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, ['-e', READER_PROCESS_SOURCE, DRIVER_ENTRY, this.file], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
      env,
    });
    track(child);
    const reader: Reader = {child, ready: false, gone: false};
    this.readers.add(reader);
    this.idle(reader);
    child.on('message', (message: ReaderMessage) => this.answer(reader, message));
    child.once('error', (error) => {
      this.fail(error.message);
      // A process that never started sends no 'exit'.
      if (child.pid === undefined) this.ended(reader, null, null);
    });
    child.once('exit', (code, signal) => this.ended(reader, code, signal));
    return reader;
  }

  private send(reader: Reader, job: Job): void {
    reader.job = job;
    // While a statement runs the process keeps this one alive (a CLI waits for its answer); idle, it does not.
    reader.child.ref();
    reader.child.channel?.ref();
    reader.child.send({sql: job.sql, bindings: job.bindings});
    reader.timer = setTimeout(() => this.kill(reader, 'deadline'), job.ms);
  }

  private idle(reader: Reader): void {
    reader.child.unref();
    reader.child.channel?.unref();
  }

  private answer(reader: Reader, message: ReaderMessage): void {
    if ('ready' in message) {
      reader.ready = true;
      this.dispatch();
      return;
    }
    if ('failed' in message) {
      this.fail(message.failed);
      return;
    }
    const job = reader.job;
    if (!job || reader.cut) return;
    this.release(reader);
    this.settle(job, () => ('error' in message ? job.reject(driverError(message.error)) : job.resolve(message)));
    this.dispatch();
  }

  /** A reader that cannot open the file fails the reads waiting (each later read tries a new one). */
  private fail(reason: string): void {
    for (const job of this.waiting.splice(0)) this.settle(job, () => job.reject(new Error(`cannot open the SQLite database ${this.file} for reading: ${reason}`)));
  }

  private abandon(job: Job): void {
    const at = this.waiting.indexOf(job);
    if (at >= 0) {
      this.waiting.splice(at, 1);
      this.settle(job, () => job.reject(new StatementCut('abandoned')));
      return;
    }
    for (const reader of this.readers) if (reader.job === job) this.kill(reader, 'abandoned');
  }

  private kill(reader: Reader, reason: StatementCut['reason']): void {
    if (reader.cut || reader.gone) return;
    reader.cut = reason;
    clearTimeout(reader.timer);
    reader.child.kill('SIGKILL');
  }

  private ended(reader: Reader, code: number | null, signal: NodeJS.Signals | null): void {
    if (reader.gone) return;
    reader.gone = true;
    this.readers.delete(reader);
    const job = reader.job;
    if (job) {
      this.release(reader);
      const why = reader.cut ? new StatementCut(reader.cut) : new Error(`the SQLite reader process ended (${signal ?? `exit code ${code}`}) before its answer`);
      this.settle(job, () => job.reject(why));
    }
    this.dispatch();
  }

  private release(reader: Reader): void {
    clearTimeout(reader.timer);
    reader.job = undefined;
    if (!reader.gone) this.idle(reader);
  }

  private settle(job: Job, answer: () => void): void {
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    answer();
  }
}
