import {readFileSync, rmSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {z} from 'zod';
import {writeFileAtomic} from '../../core/atomic-write.js';
import {WorkbenchError} from '../../core/errors.js';
import {ensureDirectory} from '../../core/paths.js';
import {checkProviderName, oauthDirectory} from './profiles.js';

/** A stored sign-in: `<name>.token.json` beside the profile, mode 600. */
export interface StoredToken {
  accessToken: string;
  refreshToken?: string;
  /** ISO 8601 UTC; null for a key that does not expire (the gateway's). */
  expiresAt: string | null;
  obtainedAt: string;
}

const tokenSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).optional(),
  expiresAt: z.iso.datetime().nullable(),
  obtainedAt: z.iso.datetime(),
});

export function tokenPath(name: string): string {
  return join(oauthDirectory(), `${checkProviderName(name)}.token.json`);
}

/**
 * The stored token, or null when there is none. A file others may read is refused, not repaired:
 * the secret may already have leaked, and the user should know (gemini-cli and ssh do the same).
 */
export function readToken(name: string): StoredToken | null {
  const path = tokenPath(name);
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new WorkbenchError('config_invalid', `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new WorkbenchError('config_invalid', `${path} has mode ${mode.toString(8)}; it must be 600 (chmod 600 ${path})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    // JSON.parse quotes the text it failed on; the text is a secret, so only the position is kept.
    const where = /position \d+/.exec((error as Error).message)?.[0];
    throw new WorkbenchError('config_invalid', `${path} is not valid JSON${where ? ` (${where})` : ''}; sign in again: workbench connect --provider ${name}`);
  }
  const parsed = tokenSchema.safeParse(value);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join('.') || 'token';
    throw new WorkbenchError('config_invalid', `${path}: ${field} is missing or malformed; sign in again: workbench connect --provider ${name}`);
  }
  return parsed.data;
}

/** Written to a temp name with mode 600 and renamed over the old file. */
export function writeToken(name: string, token: StoredToken): string {
  ensureDirectory(oauthDirectory());
  const path = tokenPath(name);
  writeFileAtomic(path, `${JSON.stringify(token, null, 2)}\n`, {mode: 0o600});
  return path;
}

/** Whether a token was there to forget. */
export function forgetToken(name: string): boolean {
  const path = tokenPath(name);
  try {
    statSync(path);
  } catch {
    return false;
  }
  rmSync(path, {force: true});
  return true;
}
