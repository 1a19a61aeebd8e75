// Files written whole or not at all, and the home kept the user's alone. A full disk is the real
// kernel's: the bytes go to /dev/full, which answers every write with ENOSPC.
import {closeSync, chmodSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, expect, it} from 'vitest';
import {writeFileAtomic} from '../../../source/core/atomic-write.js';
import {ensureDirectory, ensureHome} from '../../../source/core/paths.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-atomic-'));
});
afterEach(() => {
  rmSync(dir, {recursive: true, force: true});
});

/** Writes to /dev/full instead of the temp file: the kernel's ENOSPC. */
function fullDisk(_fd: number, bytes: Buffer): void {
  const full = openSync('/dev/full', 'w');
  try {
    writeSync(full, bytes);
  } finally {
    closeSync(full);
  }
}

it('writes the whole file, 0600 unless told otherwise, and leaves no temp file', () => {
  const path = join(dir, 'state.json');
  writeFileAtomic(path, '{"a": 1}\n');
  expect(readFileSync(path, 'utf8')).toBe('{"a": 1}\n');
  expect(statSync(path).mode & 0o777).toBe(0o600);
  writeFileAtomic(path, 'second');
  expect(readFileSync(path, 'utf8')).toBe('second');
  expect(readdirSync(dir)).toEqual(['state.json']);
});

it('a full disk leaves the previous file as it was, and no temp file', () => {
  const path = join(dir, 'backup.opml');
  writeFileSync(path, 'yesterday’s good backup');
  expect(() => writeFileAtomic(path, 'x'.repeat(100_000), {writeBytes: fullDisk})).toThrow(expect.objectContaining({code: 'ENOSPC'}));
  expect(readFileSync(path, 'utf8')).toBe('yesterday’s good backup');
  expect(readdirSync(dir)).toEqual(['backup.opml']);
});

it('a full disk on a new file leaves nothing, not an empty file', () => {
  const path = join(dir, 'new.json');
  expect(() => writeFileAtomic(path, '{}', {writeBytes: fullDisk})).toThrow(/ENOSPC/);
  expect(readdirSync(dir)).toEqual([]);
});

it('ensureHome creates the home 0700 and tightens one that exists looser', () => {
  const home = join(dir, 'a', 'home');
  process.env.WORKBENCH_HOME = home;
  try {
    expect(ensureHome()).toBe(home);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    chmodSync(home, 0o755);
    ensureHome();
    expect(statSync(home).mode & 0o777).toBe(0o700);
  } finally {
    delete process.env.WORKBENCH_HOME;
  }
});

it('a folder that cannot be made is one clear error, not a hang (mkdir -p loops under /proc)', () => {
  expect(() => ensureDirectory('/proc/nope/x')).toThrow('cannot create the folder /proc/nope: ENOENT');
  writeFileSync(join(dir, 'file'), '');
  expect(() => ensureDirectory(join(dir, 'file', 'sub'))).toThrow(/is a file, not a folder/);
  mkdirSync(join(dir, 'kept'), {mode: 0o755});
  expect(existsSync(ensureDirectory(join(dir, 'kept', 'deep', 'er')))).toBe(true);
});
