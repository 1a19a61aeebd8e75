import {createHash} from 'node:crypto';
import type {SocialStatus} from '../types.js';

/**
 * What makes two statuses the same story: a link (normalised: no fragment, no tracking
 * parameters, host in lower case, no trailing slash) or the same words (a hash of the text's
 * words in lower case, without links, mentions and punctuation; short texts have none).
 */
export function statusFingerprints(status: SocialStatus): {links: string[]; fingerprint: string} {
  const words = `${status.title ?? ''} ${status.text}`
    .toLowerCase()
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[@#][\w.@-]+/g, ' ')
    .match(/[\p{L}\p{N}]+/gu);
  const fingerprint = words && words.length >= 6 ? createHash('sha256').update(words.join(' ')).digest('base64url').slice(0, 22) : '';
  return {links: status.links.map(normaliseLink).filter((link): link is string => link !== null), fingerprint};
}

export function normaliseLink(link: string): string | null {
  try {
    const url = new URL(link);
    url.hash = '';
    url.hostname = url.hostname.toLowerCase().replace(/^www\./, '');
    for (const name of [...url.searchParams.keys()]) if (/^(utm_|fbclid$|gclid$|ref$|ref_src$)/i.test(name)) url.searchParams.delete(name);
    return url.toString().replace(/\/+$/, '');
  } catch {
    return null;
  }
}
