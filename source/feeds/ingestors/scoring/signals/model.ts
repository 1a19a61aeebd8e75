import type {Judgement, ScoreReason} from '../../types.js';

/** The model's relevance (0..1) moves the score by up to ±1.5; its reason is quoted. */
export function modelReason(judgement: Judgement | undefined): ScoreReason | null {
  if (!judgement) return null;
  const effect = 3 * (judgement.relevance - 0.5);
  return {signal: 'llm', effect, detail: `the model: "${judgement.why}" (relevance ${judgement.relevance.toFixed(2)})`};
}
