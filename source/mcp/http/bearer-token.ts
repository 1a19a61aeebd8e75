import {createHash, randomBytes, timingSafeEqual} from 'node:crypto';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {writeFileAtomic} from '../../core/atomic-write.js';
import {WorkbenchError} from '../../core/errors.js';
import {ensureHome} from '../../core/paths.js';

/** The variable that hands `workbench mcp --http --token` a token of the user's own. */
export const TOKEN_VARIABLE = 'WORKBENCH_MCP_TOKEN';
// 128 bits at the least, as every secret of the project.
const MIN_TOKEN_CHARS = 22;

export function tokenPath(home = ensureHome()): string {
  return join(home, 'mcp-http-token');
}

/**
 * The bearer token clients must send: WORKBENCH_MCP_TOKEN when set, else the one kept in the
 * home (0600), made on first use (256 random bits) so an editor's configuration stays valid
 * across restarts.
 */
export function loadOrCreateToken(env: NodeJS.ProcessEnv = process.env): {token: string; source: string} {
  const given = env[TOKEN_VARIABLE];
  if (given !== undefined) {
    if (given.length < MIN_TOKEN_CHARS || !/^[\x21-\x7e]+$/.test(given))
      throw new WorkbenchError('invalid_argument', `${TOKEN_VARIABLE} must be at least ${MIN_TOKEN_CHARS} printable characters without spaces (128 bits or more)`);
    return {token: given, source: TOKEN_VARIABLE};
  }
  const path = tokenPath();
  try {
    const kept = readFileSync(path, 'utf8').trim();
    if (kept.length >= MIN_TOKEN_CHARS) return {token: kept, source: path};
  } catch {
    // None yet: made below.
  }
  const token = randomBytes(32).toString('base64url');
  writeFileAtomic(path, `${token}\n`, {mode: 0o600});
  return {token, source: path};
}

/** Whether an Authorization header carries the token; constant time in the token's content. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+)$/i.exec(header ?? '');
  if (!match) return false;
  return timingSafeEqual(digest(match[1]!), digest(token));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
