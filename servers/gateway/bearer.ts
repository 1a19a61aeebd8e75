import {createHash, timingSafeEqual} from 'node:crypto';

/** The token of `Authorization: Bearer <token>`; undefined when there is none (no header, another scheme, nothing after it). */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1];
}

/** Whether a given secret is the expected one, in time that does not depend on where they differ (both hashed to one length first). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
