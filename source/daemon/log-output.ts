import {fstatSync} from 'node:fs';
import {LogSink} from '../core/log-sink.js';

/**
 * A detached daemon's stdout and stderr are its log file (`daemon.log`, lifecycle.ts opens it
 * for the child). Node writes to a file through a stream that, on a full disk, emits an 'error'
 * that ends the process, and is dead from then on. So when they are files, what the daemon (and
 * any library in it) writes to them goes through a LogSink instead: lines are dropped and counted
 * (`dropped`, on the daemon's /metrics) while the disk is full, and written again once it is not.
 * A terminal or a pipe is left as it is. Answers the sinks made.
 */
export function sinkFileOutput(): LogSink[] {
  const sinks: LogSink[] = [];
  for (const [fd, stream] of [
    [1, process.stdout],
    [2, process.stderr],
  ] as const) {
    if (!isFile(fd)) continue;
    const sink = LogSink.onFd(fd, {gapLine: (dropped, reason) => `workbench daemon: ${dropped} log line${dropped === 1 ? ' was' : 's were'} dropped (${reason})\n`});
    sinks.push(sink);
    // Replaced on the stream itself, so console.* and process warnings take the same way.
    stream.write = ((chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void) => {
      sink.write(typeof chunk === 'string' && typeof encoding === 'string' && encoding !== 'utf8' ? Buffer.from(chunk, encoding) : chunk);
      const done = typeof encoding === 'function' ? encoding : callback;
      if (done) process.nextTick(done, null);
      return true;
    }) as typeof stream.write;
  }
  return sinks;
}

function isFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}
