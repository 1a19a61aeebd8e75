import type {ScoreReason} from '../../types.js';

export const DUPLICATE_EFFECT = -4;

/** The same link or the same words as a status kept before (or earlier in this fetch): shown once. */
export function duplicateReason(links: string[], fingerprint: string, seenLinks: Set<string>, seenFingerprints: Set<string>): ScoreReason | null {
  const link = links.find((item) => seenLinks.has(item));
  if (link) return {signal: 'duplicate', effect: DUPLICATE_EFFECT, detail: `duplicate: the same link as a status seen before (${link})`};
  if (fingerprint && seenFingerprints.has(fingerprint)) return {signal: 'duplicate', effect: DUPLICATE_EFFECT, detail: 'duplicate: the same text as a status seen before'};
  return null;
}
