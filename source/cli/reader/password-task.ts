import {randomBytes} from 'node:crypto';
import {readFileSync} from 'node:fs';
import {userInfo} from 'node:os';
import {WorkbenchError} from '../../core/errors.js';
import {setApiPassword} from '../../feeds/greader/auth.js';
import {openStore} from '../../feeds/store/index.js';
import {findService} from '../../services/registry.js';
import type {CommandResult} from '../command-output.js';
import {askHidden} from './ask-hidden.js';

/**
 * `workbench reader password`: writes the API password's hash into the store the running reader
 * uses (its registry entry names it), else --db, else the default store. In-process on purpose:
 * no HTTP endpoint sets a password.
 */
export async function setReaderPassword(flags: {user?: string; generate: boolean; db?: string}): Promise<CommandResult> {
  const username = flags.user?.trim() || userInfo().username;
  let password: string;
  if (flags.generate) password = randomBytes(16).toString('base64url');
  else if (process.stdin.isTTY) {
    password = await askHidden('API password: ');
    if ((await askHidden('again: ')) !== password) throw new WorkbenchError('invalid_argument', 'the two passwords differ; nothing was changed');
  } else password = (readFileSync(0, 'utf8').split(/\r?\n/)[0] ?? '').trim();
  if (!password) throw new WorkbenchError('invalid_argument', 'no password given (type it on a terminal, pipe one line to stdin, or use --generate)');
  const running = flags.db === undefined ? await findService('reader') : undefined;
  const db = flags.db ?? (typeof running?.db === 'string' ? running.db : undefined);
  const store = await openStore(db);
  try {
    await setApiPassword(store.db, username, password, Date.now());
  } finally {
    await store.close();
  }
  const where = 'sign in at the reader’s URL (newsboat: urls-source "feedhq", feedhq-url, feedhq-login, feedhq-password)';
  return {stdout: flags.generate ? `${password}\n` : '', stderr: `API password set for ${username}; clients signed in before must sign in again; ${where}\n`};
}
