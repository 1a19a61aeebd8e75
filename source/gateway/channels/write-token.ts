import {createHash, randomBytes, timingSafeEqual} from 'node:crypto';

// A channel's id is its capability to read, its write token the capability to post and delete:
// both drawn from the CSPRNG, so neither can be guessed or enumerated.

/** 144 random bits, base64url; redrawn while it starts with `-` or `_` so it is a valid feed name (FEED_NAME_PATTERN). */
export function newChannelId(): string {
  for (;;) {
    const id = randomBytes(18).toString('base64url');
    if (/^[a-z0-9]/i.test(id)) return id;
  }
}

/** 256 random bits, base64url: shown once at creation, never stored. */
export function newWriteToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of the token: its sha-256 (hex). A token has 256 random bits, so no salt or slow hash is needed. */
export function hashWriteToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether `token` is the one whose hash is stored, in constant time (both sides are 32-byte digests). */
export function writeTokenMatches(token: string, storedHash: string): boolean {
  const given = createHash('sha256').update(token, 'utf8').digest();
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === given.length && timingSafeEqual(given, stored);
}
