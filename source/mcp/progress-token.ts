/**
 * A request whose `params._meta.progressToken` is neither a string nor a whole number fails the
 * SDK's message schema in its stdio transport, which drops it without a word: the client would
 * wait for an answer that never comes. The line guard takes the bad token out and leaves this
 * mark, and params-guard.ts answers the request with -32602, naming what was given.
 */
export const BAD_TOKEN_MARK = 'io.workbench/invalid-progress-token';

const MARKER = Buffer.from('"progressToken"');

/** The line as it goes to the transport: unchanged, or with a bad progress token swapped for the mark. */
export function markBadProgressToken(line: Buffer): Buffer {
  // Parsed only when it might hold a token: every other message passes as it came.
  if (!line.includes(MARKER)) return line;
  let message: unknown;
  try {
    message = JSON.parse(line.toString('utf8'));
  } catch {
    return line;
  }
  return markBadProgressTokenIn(message) ? Buffer.from(JSON.stringify(message) + '\n') : line;
}

/** The same for a parsed message (or a list of them, as HTTP may carry): marks in place, says whether it did. */
export function markBadProgressTokenIn(message: unknown): boolean {
  if (Array.isArray(message)) return message.map(markBadProgressTokenIn).some(Boolean);
  const meta = (message as {params?: {_meta?: Record<string, unknown>}} | null)?.params?._meta;
  if (!meta || typeof meta !== 'object' || !('progressToken' in meta)) return false;
  const token = meta.progressToken;
  if (typeof token === 'string' || (typeof token === 'number' && Number.isInteger(token))) return false;
  delete meta.progressToken;
  meta[BAD_TOKEN_MARK] = kindOf(token);
  return true;
}

/** What the mark says was given instead of a token, when the request carries it. */
export function badProgressToken(params: unknown): string | undefined {
  const mark = (params as {_meta?: Record<string, unknown>} | undefined)?._meta?.[BAD_TOKEN_MARK];
  return typeof mark === 'string' ? mark : undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number') return `the number ${value}, which is not whole`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
