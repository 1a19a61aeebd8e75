import type {LedgerRow} from '../../store/ingestor-ledger.js';
import {describeError} from '../../../core/errors.js';
import {redact} from '../../../agent/credentials/redact.js';
import type {Judgement, JudgeOutcome, LlmOutcome, RunnableIngestor, SocialStatus} from '../types.js';
import type {CycleDeps} from './deps.js';

/** At most one model call per 50 statuses, and at most this many per cycle. */
export const MAX_CALLS_PER_CYCLE = 20;

/**
 * The model's judgements for a cycle: cached ones (the ledger keeps a judgement while the status's
 * text is unchanged) are reused; the rest are asked for, when the ingestor has llmEnabled.
 */
export async function judgeStatuses(
  deps: CycleDeps,
  ingestor: RunnableIngestor,
  statuses: Array<{status: SocialStatus; hash: string}>,
  known: Map<string, LedgerRow>,
): Promise<{judgements: Map<string, Judgement>; fresh: Set<string>; outcome: LlmOutcome}> {
  const judgements = new Map<string, Judgement>();
  const fresh = new Set<string>();
  if (!ingestor.llmEnabled) return {judgements, fresh, outcome: {state: 'off', calls: 0, cached: 0, problem: null}};
  const ask: SocialStatus[] = [];
  for (const {status, hash} of statuses) {
    const row = known.get(status.key);
    if (row?.llm_hash === hash && row.llm_relevance !== null) judgements.set(status.key, {relevance: Number(row.llm_relevance), why: row.llm_why ?? ''});
    else ask.push(status);
  }
  const cached = judgements.size;
  if (ask.length === 0) return {judgements, fresh, outcome: {state: 'ok', calls: 0, cached, problem: null}};
  let result: JudgeOutcome;
  try {
    const judge = await deps.openJudge();
    result = await judge.judge(ask, ingestor.rules.interests, {maxCalls: Math.min(MAX_CALLS_PER_CYCLE, Math.ceil(ask.length / 50))});
  } catch (error) {
    // The judge reports its problems instead of throwing; one that throws anyway (a bad agent
    // config, a bug) must not stop the statuses: they are scored without the model, and the status says why.
    const problem = `the model was not asked: ${redact(describeError(error), ingestor.secrets)}`;
    return {judgements, fresh, outcome: {state: 'unavailable', calls: 0, cached, problem}};
  }
  for (const [key, judgement] of result.judgements) {
    judgements.set(key, judgement);
    fresh.add(key);
  }
  const state = result.calls === 0 && result.problem ? 'unavailable' : result.unjudged > 0 ? 'partial' : 'ok';
  return {judgements, fresh, outcome: {state, calls: result.calls, cached, problem: result.problem}};
}
