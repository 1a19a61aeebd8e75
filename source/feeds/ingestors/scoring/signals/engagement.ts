import type {ScoreReason, SocialStatus} from '../../types.js';

/** likes + 2·reposts + replies: a repost spreads a post further than a like. */
export function engagementOf(status: SocialStatus): number {
  return status.engagement.likes + 2 * status.engagement.reposts + status.engagement.replies;
}

/** Engagement against the author's usual (their median): 3× their usual is news, whoever the author. */
export function engagementReason(status: SocialStatus, usual: number): ScoreReason {
  const value = engagementOf(status);
  const ratio = (value + 1) / (usual + 1);
  const effect = Math.max(-1.5, Math.min(1.5, Math.log(ratio)));
  return {signal: 'engagement', effect, detail: `engagement ${ratio.toFixed(1)}× this author's usual (${value} vs ${round(usual)})`};
}

function round(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
