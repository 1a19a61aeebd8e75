import {readFileSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {writeFileAtomic, type AtomicWriteOptions} from '../core/atomic-write.js';
import {describeError, WorkbenchError} from '../core/errors.js';
import {ensureDirectory, ensureHome, workbenchHome} from '../core/paths.js';
import {sendRequest} from '../net/http-client.js';

/**
 * What a running server (`workbench serve <name>`) leaves in `WORKBENCH_HOME/services/<name>.json`
 * so the CLI, the TUI and the daemon find it. Servers may add fields of their own.
 */
export interface ServiceEntry {
  name: string;
  /** Base URL, e.g. `http://127.0.0.1:7700`. */
  url: string;
  /** A URL that answers 200 while the server is up. */
  health: string;
  pid: number;
  startedAt: string;
  /** The server's request log. */
  log?: string;
  [field: string]: unknown;
}

// A local server answers health in a few ms; a stale entry must not slow every command.
const HEALTH_TIMEOUT_MS = 300;
const NAME = /^[a-z][a-z0-9-]{0,40}$/;

export function servicesDir(home = workbenchHome()): string {
  return join(home, 'services');
}

export function servicePath(name: string, home = workbenchHome()): string {
  if (!NAME.test(name)) throw new WorkbenchError('invalid_argument', `"${name}" is not a service name`);
  return join(servicesDir(home), `${name}.json`);
}

/**
 * Announces a server: the entry is written whole or not at all (temp file + rename, 0600 in a
 * 0700 folder), so a full disk leaves no empty file for the others to trip on.
 */
export function announceService(entry: Pick<ServiceEntry, 'name' | 'url' | 'health'> & Partial<ServiceEntry>, options: Pick<AtomicWriteOptions, 'writeBytes'> = {}): ServiceEntry {
  const full: ServiceEntry = {...entry, pid: entry.pid ?? process.pid, startedAt: entry.startedAt ?? new Date().toISOString()};
  const path = servicePath(full.name);
  ensureHome();
  ensureDirectory(servicesDir());
  try {
    writeFileAtomic(path, JSON.stringify(full, null, 2) + '\n', {mode: 0o600, ...options});
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const fault = code === 'ENOSPC' || code === 'EDQUOT' ? 'disk_full' : 'internal';
    throw new WorkbenchError(fault, `cannot write ${path}: ${fault === 'disk_full' ? 'the disk is full' : describeError(error)}`);
  }
  return full;
}

/** Takes the entry back when it is still this process's (a newer server may have replaced it). */
export function withdrawService(name: string, pid = process.pid): void {
  if (readServiceEntry(name)?.pid === pid) rmSync(servicePath(name), {force: true});
}

/** The entry as written, whether or not its server still runs; undefined when missing or unreadable. */
export function readServiceEntry(name: string): ServiceEntry | undefined {
  try {
    const entry = JSON.parse(readFileSync(servicePath(name), 'utf8')) as Partial<ServiceEntry>;
    const valid = typeof entry.url === 'string' && typeof entry.pid === 'number' && typeof entry.health === 'string';
    return valid ? (entry as ServiceEntry) : undefined;
  } catch {
    return undefined;
  }
}

/** The running server of that name: its entry when its process lives and its health URL answers 200 in time. */
export async function findService(name: string, timeoutMs = HEALTH_TIMEOUT_MS): Promise<ServiceEntry | undefined> {
  const entry = readServiceEntry(name);
  if (!entry || !processAlive(entry.pid)) return undefined;
  return (await answersHealth(entry.health, timeoutMs)) ? entry : undefined;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive but someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// The one outbound client (node:http underneath: no fetch, whose undici costs a command ~40 ms to
// load). A registry entry names a local server, so private and loopback addresses are allowed.
async function answersHealth(url: string, timeoutMs: number): Promise<boolean> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  if (target.protocol !== 'http:') return false;
  try {
    const answer = await sendRequest(target, {method: 'GET', headers: {accept: 'application/json'}, timeoutMs, maxBytes: 64 * 1024, policy: {allowPrivate: true}});
    return answer.status === 200;
  } catch {
    return false;
  }
}
