// A real small disk for the disk-full tests: a 3 MB tmpfs of the test's own, filled by a filler
// file until the kernel says ENOSPC and freed by deleting it. Mounting needs root (CI runs as
// root); without it the tests are skipped loudly, and fail under WORKBENCH_REQUIRE_SERVICES.
import {execFileSync} from 'node:child_process';
import {closeSync, mkdtempSync, openSync, readFileSync, rmSync, statfsSync, writeSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import knex, {type Knex} from 'knex';
import {expect} from 'vitest';
import {makeSandbox, type Sandbox} from '../../helpers/cli.js';

export interface SmallDisk {
  /** The mount point. */
  dir: string;
  /** Writes a filler file until the disk refuses a byte more. */
  fill(): void;
  /** Deletes the filler: room again. */
  free(): void;
  /** Bytes the disk still takes. */
  available(): number;
  /** Unmounts (lazily when something still holds a file open) and removes the mount point; once. */
  unmount(): void;
}

/** A mounted small disk, or why there is none (said loudly; thrown under WORKBENCH_REQUIRE_SERVICES). */
export function mountSmallDisk(what: string): SmallDisk | string {
  const dir = mkdtempSync(join(tmpdir(), 'wb-disk-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m,mode=0700', 'tmpfs', dir], {stdio: ['ignore', 'ignore', 'pipe']});
  } catch (error) {
    rmSync(dir, {recursive: true, force: true});
    const why = (error as {stderr?: Buffer}).stderr?.toString().trim() || (error as Error).message;
    const message = `cannot mount a 3 MB tmpfs (${why}; it needs root): the disk-full tests of ${what} are SKIPPED`;
    if (process.env.WORKBENCH_REQUIRE_SERVICES) throw new Error(`${message} — and WORKBENCH_REQUIRE_SERVICES is set`, {cause: error});
    console.warn(`\n!!! ${message} !!!\n`);
    return message;
  }
  const filler = join(dir, 'filler');
  let mounted = true;
  const available = () => {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  };
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
      expect(available()).toBe(0);
    },
    free() {
      rmSync(filler, {force: true});
      expect(available()).toBeGreaterThan(1024 * 1024);
    },
    available,
    unmount() {
      if (!mounted) return;
      mounted = false;
      try {
        execFileSync('umount', [dir], {stdio: 'ignore'});
      } catch {
        execFileSync('umount', ['-l', dir], {stdio: 'ignore'});
      }
      rmSync(dir, {recursive: true, force: true});
    },
  };
}

/** A sandbox (makeSandbox) whose WORKBENCH_HOME is on the small disk. */
export function sandboxOn(disk: SmallDisk, prefix: string): Sandbox {
  const sandbox = makeSandbox(prefix);
  const home = join(disk.dir, 'home');
  return {...sandbox, home, env: {...sandbox.env, WORKBENCH_HOME: home}};
}

/** The value of `workbench_log_lines_dropped_total{log="<log>"}` on a /metrics answer. */
export async function droppedLogLines(url: string, log: string): Promise<number> {
  const text = await (await fetch(url)).text();
  const match = new RegExp(`^workbench_log_lines_dropped_total\\{log="${log}"\\} (\\d+)$`, 'm').exec(text);
  if (!match) throw new Error(`no workbench_log_lines_dropped_total{log="${log}"} on ${url}:\n${text}`);
  return Number(match[1]);
}

/** The lines of a log file that say how many lines a full disk cost it. */
export function gapLines(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => /\d+ log lines? (was|were) dropped \(the disk is full\)/.test(line));
}

/** A server that could not start on a full disk: exit 1, one `workbench:` line saying so (warnings aside), no stack. */
export function expectOneLineDiskFull(code: number | null, output: string): void {
  expect(code, output).toBe(1);
  const lines = output.split('\n').filter((line) => line !== '' && !line.startsWith('warning: '));
  expect(lines, output).toEqual([expect.stringMatching(/^workbench: .*(disk is full|database or disk is full)/)]);
  expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

/** A stopped server's SQLite store: `PRAGMA integrity_check`'s answer and what `query` reads. */
export async function readStore<T>(filename: string, query: (db: Knex) => Promise<T>): Promise<{integrity: string; result: T}> {
  const db = knex({client: 'better-sqlite3', connection: {filename, options: {readonly: true}}, useNullAsDefault: true});
  try {
    const rows = (await db.raw('PRAGMA integrity_check')) as Array<{integrity_check: string}>;
    return {integrity: rows.map((row) => row.integrity_check).join('\n'), result: await query(db)};
  } finally {
    await db.destroy();
  }
}
