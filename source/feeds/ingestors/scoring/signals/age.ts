import type {ScoreReason, ScoringRules, SocialStatus} from '../../types.js';

/** Old news counts less: the score loses half its lead every `halfLifeHours` (at most −3). */
export function ageReason(status: SocialStatus, rules: ScoringRules, now: Date): ScoreReason | null {
  const hours = (now.getTime() - Date.parse(status.createdAt)) / 3_600_000;
  if (!(hours > 1)) return null;
  const effect = Math.max(-3, (-Math.LN2 * hours) / rules.halfLifeHours);
  return {signal: 'age', effect, detail: `${hours < 48 ? `${Math.round(hours)} hours` : `${Math.round(hours / 24)} days`} old (half-life ${rules.halfLifeHours} h)`};
}
