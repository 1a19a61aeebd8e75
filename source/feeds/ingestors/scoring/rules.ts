import {z} from 'zod';
import {WorkbenchError} from '../../../core/errors.js';
import type {ScoringRules} from '../types.js';

const weight = z.number().min(-10).max(10);
const weights = z
  .record(z.string().trim().min(1).max(200), weight)
  .refine((value) => Object.keys(value).length <= 200, 'at most 200 entries')
  .optional();

const rules = z
  .object({
    keywords: weights,
    authors: weights,
    boostEffect: weight.optional(),
    replyEffect: weight.optional(),
    halfLifeHours: z.number().min(1).max(720).optional(),
    interests: z.string().max(2000).optional(),
  })
  .strict();

export const DEFAULT_RULES: ScoringRules = {keywords: {}, authors: {}, boostEffect: -0.5, replyEffect: -1, halfLifeHours: 24, interests: ''};

/** The user's weights from `config.scoring` (absent: the defaults). Errors name the field: `config.scoring.keywords.rust must be …`. */
export function parseScoringRules(value: unknown): ScoringRules {
  if (value === undefined || value === null) return DEFAULT_RULES;
  const parsed = rules.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = ['config', 'scoring', ...issue.path.map(String)].join('.');
    const message =
      issue.code === 'unrecognized_keys'
        ? `config.scoring has no field ${issue.keys.join(', ')} (fields: keywords, authors, boostEffect, replyEffect, halfLifeHours, interests)`
        : issue.code === 'too_small' || issue.code === 'too_big' || (issue.code === 'invalid_type' && issue.expected === 'number')
          ? `${path} must be a number in its range (weights −10…10, halfLifeHours 1…720)`
          : `${path}: ${issue.message}`;
    throw new WorkbenchError('invalid_argument', message);
  }
  return {
    keywords: parsed.data.keywords ?? {},
    authors: Object.fromEntries(Object.entries(parsed.data.authors ?? {}).map(([handle, effect]) => [authorKey(handle), effect])),
    boostEffect: parsed.data.boostEffect ?? DEFAULT_RULES.boostEffect,
    replyEffect: parsed.data.replyEffect ?? DEFAULT_RULES.replyEffect,
    halfLifeHours: parsed.data.halfLifeHours ?? DEFAULT_RULES.halfLifeHours,
    interests: parsed.data.interests?.trim() ?? '',
  };
}

/** Handles compare without case and without a leading `@` (`@Alice@host` is `alice@host`). */
export function authorKey(handle: string): string {
  return handle.trim().replace(/^@/, '').toLowerCase();
}
