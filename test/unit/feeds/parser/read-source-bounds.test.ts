// `workbench feeds parse <file>` is bounded like the network path: the fetcher's 15 MB cap and
// its deadline, for devices, FIFOs, pipes and huge files alike.
import {execFileSync} from 'node:child_process';
import {closeSync, constants, ftruncateSync, mkdtempSync, openSync, readdirSync, readlinkSync, rmSync, writeSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import ParseCommand from '../../../../commands/feeds/parse.js';
import {readFeedSource} from '../../../../source/feeds/parser/read-source.js';

async function failure(promise: Promise<unknown>): Promise<{code?: string; message: string}> {
  try {
    await promise;
  } catch (error) {
    return error as {code?: string; message: string};
  }
  throw new Error('no error');
}

const parse = (target: string) => ParseCommand.task({args: [target], options: {json: false}});

let dir: string;
const held: number[] = [];
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'wb-parse-bounds-'));
});
afterAll(() => {
  for (const fd of held.splice(0)) closeSync(fd);
  rmSync(dir, {recursive: true, force: true});
});

/**
 * A FIFO with a writer: the test holds it open read-write (Linux never blocks on that), so the
 * reader sees a pipe that has a writer, as with `<(curl …)`, until end() closes it.
 */
function heldPipe(): {path: string; write(text: string): void; end(): void} {
  const fifo = path.join(dir, `pipe-${held.length}`);
  execFileSync('mkfifo', [fifo]);
  const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
  held.push(fd);
  return {
    path: fifo,
    write: (text) => void writeSync(fd, text),
    end: () => {
      held.splice(held.indexOf(fd), 1);
      closeSync(fd);
    },
  };
}

/** How many descriptors of this process are open on `file`. */
function openedTimes(file: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === file) count++;
    } catch {
      // Closed meanwhile.
    }
  }
  return count;
}

describe("feeds parse reads files under the fetcher's limits", () => {
  it('/dev/zero stops at the 15 MB cap with a clear error', async () => {
    expect(await failure(parse('/dev/zero'))).toMatchObject({code: 'payload_too_large', message: '/dev/zero is larger than 15 MB, the cap on a feed'});
  });

  it('a huge file is refused by its size, before reading', async () => {
    const huge = path.join(dir, 'huge.xml');
    const fd = openSync(huge, 'w');
    ftruncateSync(fd, 4 * 1024 * 1024 * 1024);
    closeSync(fd);
    expect(await failure(parse(huge))).toMatchObject({code: 'payload_too_large', message: `${huge} is larger than 15 MB, the cap on a feed`});
  });

  it('a FIFO nobody writes to ends at once as an empty document, not a hang in open()', async () => {
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(await failure(parse(fifo))).toMatchObject({code: 'not_a_feed'});
  });

  it('a pipe that stalls runs into the deadline', async () => {
    const pipe = heldPipe();
    pipe.write('<rss version="2.0"><channel>');
    expect(await failure(readFeedSource(pipe.path, {timeoutMs: 300}))).toMatchObject({code: 'invalid_argument', message: `${pipe.path} sent no end of data within 0.3 s`});
  });

  it('a pipe that streams past the cap stops at the cap', async () => {
    const pipe = heldPipe();
    const pending = readFeedSource(pipe.path, {maxBytes: 1000, timeoutMs: 10_000});
    pipe.write('x'.repeat(5000));
    expect(await failure(pending)).toMatchObject({code: 'payload_too_large'});
  });

  it('a pipe that ends is read whole (process substitution, /dev/stdin)', async () => {
    const pipe = heldPipe();
    const pending = readFeedSource(pipe.path, {timeoutMs: 10_000});
    // Closing the last writer before the reader opens would drop the data: wait for its open.
    while (openedTimes(pipe.path) < 2) await new Promise((resolve) => setImmediate(resolve));
    pipe.write('<rss version="2.0"><channel><title>Piped</title>');
    pipe.write('</channel></rss>');
    pipe.end();
    expect((await pending).body.toString()).toBe('<rss version="2.0"><channel><title>Piped</title></channel></rss>');
  });
});
