import {z} from 'zod';

/** An http(s) URL without a trailing slash (so paths join cleanly). */
export const baseUrl = z
  .string()
  .trim()
  .refine((text) => {
    try {
      const url = new URL(text);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, 'must be an http(s) URL without a user name or password')
  .transform((text) => text.replace(/\/+$/, ''));

/** A name to follow: an account, a tag, a list id … (no spaces, no slashes unless allowed). */
export const followName = (pattern: RegExp, what: string) => z.string().trim().min(1).max(300).regex(pattern, what);

export const secret = z.string().trim().min(1).max(4096);

/** Exactly one of `fields` must be set: what an ingestor follows. */
export function exactlyOne<T extends Record<string, unknown>>(fields: (keyof T & string)[]) {
  return (config: T, context: z.RefinementCtx) => {
    const set = fields.filter((field) => config[field] !== undefined);
    if (set.length !== 1)
      context.addIssue({code: 'custom', message: `give exactly one of ${fields.join(', ')} (what to follow)${set.length > 1 ? `; got ${set.join(' and ')}` : ''}`, path: []});
  };
}

/** A date the network gives (ISO 8601); a status with an unreadable one is skipped. */
export const wireDate = z.string().refine((text) => Number.isFinite(Date.parse(text)), 'not a date');
