import {statSync, writeFileSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {writeFileAtomic, type AtomicWriteOptions} from '../../core/atomic-write.js';
import {WorkbenchError} from '../../core/errors.js';

// OPML files of thousands of feeds are a few MB; anything far larger is not one.
const MAX_BYTES = 20 * 1024 * 1024;

/** An OPML file's text (`-` reads stdin), or a one-line error for a missing, huge or non-XML file. */
export async function readOpmlFile(path: string): Promise<string> {
  let text: string;
  try {
    text = path === '-' ? await readStdin() : await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new WorkbenchError('invalid_argument', `no such file: ${path}`);
    if (code === 'EISDIR') throw new WorkbenchError('invalid_argument', `${path} is a folder, not an OPML file`);
    throw new WorkbenchError('invalid_argument', `cannot read ${path}: ${(error as Error).message}`);
  }
  if (text.length > MAX_BYTES) throw new WorkbenchError('invalid_argument', `${path} is larger than ${MAX_BYTES / 1024 / 1024} MB: not an OPML file`);
  if (!/<opml[\s>]/i.test(text.slice(0, 4096))) throw new WorkbenchError('invalid_argument', `${path} is not an OPML file (no <opml> element)`);
  return text;
}

/**
 * Writes an export whole or not at all: a full disk must not replace yesterday's good backup with
 * half of today's. A file keeps its mode (a new one gets the usual 0644: it is the user's
 * document); a device or pipe (`/dev/stdout`) is written as is. `writeBytes` is for tests.
 */
export async function writeOpmlFile(path: string, xml: string, options: Pick<AtomicWriteOptions, 'writeBytes'> = {}): Promise<void> {
  const text = xml.endsWith('\n') ? xml : xml + '\n';
  try {
    const existing = statOrUndefined(path);
    if (existing && !existing.isFile() && !existing.isDirectory()) writeFileSync(path, text);
    else writeFileAtomic(path, text, {mode: existing ? existing.mode & 0o777 : 0o644, ...options});
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw new WorkbenchError('disk_full', `cannot write ${path}: the disk is full (the previous file, if any, is unchanged)`);
    throw new WorkbenchError('invalid_argument', `cannot write ${path}: ${(error as Error).message}`);
  }
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
