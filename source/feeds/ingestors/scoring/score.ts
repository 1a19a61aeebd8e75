import type {ScoredStatus, ScoreReason, ScoringContext, SocialStatus} from '../types.js';
import {authorKey} from './rules.js';
import {statusFingerprints} from './fingerprint.js';
import {ageReason} from './signals/age.js';
import {duplicateReason} from './signals/duplicate.js';
import {engagementOf, engagementReason, median} from './signals/engagement.js';
import {modelReason} from './signals/model.js';
import {boostReason, replyReason} from './signals/shape.js';
import {authorReason, keywordMatcher} from './signals/weights.js';

/**
 * Scores a fetch: each status's effects (README.md) summed, through a sigmoid, to 0..1, with the
 * reasons that made it. Pure; the output keeps the input's order. Duplicates are judged in that
 * order too: the first of two statuses with one link is kept, the next is the duplicate.
 */
export function scoreStatuses(statuses: SocialStatus[], context: ScoringContext): ScoredStatus[] {
  const keywords = keywordMatcher(context.rules);
  const usual = usualEngagement(statuses, context.authorUsual);
  const seenLinks = new Set(context.seenLinks);
  const seenFingerprints = new Set(context.seenFingerprints);
  return statuses.map((status) => {
    const {links, fingerprint} = statusFingerprints(status);
    const reasons: ScoreReason[] = [engagementReason(status, usual(status))];
    reasons.push(...keywords(status));
    for (const reason of [
      authorReason(status, context.rules),
      boostReason(status, context.rules),
      replyReason(status, context.rules),
      duplicateReason(links, fingerprint, seenLinks, seenFingerprints),
      ageReason(status, context.rules, context.now),
      modelReason(context.judgements.get(status.key)),
    ])
      if (reason) reasons.push(reason);
    const score = sigmoid(reasons.reduce((sum, reason) => sum + reason.effect, 0));
    const kept = score >= context.threshold;
    // Only what is kept makes later ones duplicates: a dropped post does not hide a better copy.
    if (kept) {
      for (const link of links) seenLinks.add(link);
      if (fingerprint) seenFingerprints.add(fingerprint);
    }
    return {status, score, kept, reasons};
  });
}

/** An author's usual: their history's median, else their median in this fetch, else the fetch's. */
function usualEngagement(statuses: SocialStatus[], history: Map<string, number>): (status: SocialStatus) => number {
  const byAuthor = new Map<string, number[]>();
  for (const status of statuses) {
    const key = authorKey(status.author.handle);
    const list = byAuthor.get(key) ?? [];
    list.push(engagementOf(status));
    byAuthor.set(key, list);
  }
  const overall = median(statuses.map(engagementOf));
  const batch = new Map([...byAuthor].map(([key, values]) => [key, values.length >= 3 ? median(values) : undefined]));
  return (status) => {
    const key = authorKey(status.author.handle);
    return history.get(key) ?? history.get(status.author.handle) ?? batch.get(key) ?? overall;
  };
}

function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}
