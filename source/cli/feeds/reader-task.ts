import {WorkbenchError} from '../../core/errors.js';
import {parseInteger} from '../../core/parse-number.js';
import type {CommandResult} from '../command-output.js';
import type {ReaderService} from '../../feeds/contracts.js';
import {openReader} from '../../feeds/client/connect.js';

/** Runs one command's work on the reader it names, closing it after (an in-process store holds a pool). */
export async function withReader(flags: {server?: string; db?: string}, work: (reader: ReaderService) => Promise<CommandResult>): Promise<CommandResult> {
  const reader = await openReader({server: flags.server, db: flags.db});
  try {
    return await work(reader);
  } finally {
    await reader.close();
  }
}

/** A record id from the command line: a whole number of 1 or more. */
export function parseId(value: string, what: string): number {
  const id = parseInteger(value, what)!;
  if (id < 1) throw new WorkbenchError('invalid_argument', `${what} must be 1 or more, got ${id}`);
  if (!Number.isSafeInteger(id)) throw new WorkbenchError('invalid_argument', `${what} is too large: ${value}`);
  return id;
}

/** A feed address as people type it: http(s) only, scheme optional (`example.com/feed`). */
export function feedUrlArgument(value: string): string {
  const text = value.trim();
  // `localhost:8080/feed` has no scheme: a port follows its colon.
  const withScheme = /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new WorkbenchError('invalid_argument', `"${value}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WorkbenchError('invalid_argument', `"${value}" is not an http(s) URL`);
  if (!url.hostname) throw new WorkbenchError('invalid_argument', `"${value}" has no host`);
  return url.href;
}

// The shapes of a command's output, shared with the gateway's commands.
export {data, json, text} from '../command-result.js';
