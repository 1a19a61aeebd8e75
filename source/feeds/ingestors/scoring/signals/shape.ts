import type {ScoreReason, ScoringRules, SocialStatus} from '../../types.js';
import {signed} from './weights.js';

/** A boost is someone else's post passed along: worth less than what the followed author wrote. */
export function boostReason(status: SocialStatus, rules: ScoringRules): ScoreReason | null {
  if (!status.repostedBy || rules.boostEffect === 0) return null;
  return {signal: 'boost', effect: rules.boostEffect, detail: `a boost by @${status.repostedBy} (${signed(rules.boostEffect)})`};
}

/** A reply to someone else reads out of context; a reply in the author's own thread does not count. */
export function replyReason(status: SocialStatus, rules: ScoringRules): ScoreReason | null {
  if (!status.replyTo || status.replyToSelf || rules.replyEffect === 0) return null;
  return {signal: 'reply', effect: rules.replyEffect, detail: `a reply to another post (${signed(rules.replyEffect)})`};
}
