import type {z} from 'zod';
import {WorkbenchError} from '../../../core/errors.js';
import {networkOf} from '../networks/index.js';
import {parseScoringRules} from '../scoring/index.js';
import {DIGEST_MODES, INGESTOR_KINDS, INGESTOR_LIMITS, NETWORK_OF_KIND, REDACTED, type DigestMode, type IngestorKind, type NetworkSource, type ScoringRules} from '../types.js';

const KIND_NAMES = {kind_1: 'Mastodon', kind_2: 'Bluesky', kind_3: 'Reddit'} as const;

export function ingestorKind(value: unknown): IngestorKind {
  if (typeof value === 'string' && (INGESTOR_KINDS as readonly string[]).includes(value)) return value as IngestorKind;
  // The network's name is accepted too (`mastodon`): the faces say kind_1 (Mastodon).
  const byName = Object.entries(NETWORK_OF_KIND).find(([, name]) => name === value)?.[0];
  if (byName) return byName as IngestorKind;
  throw new WorkbenchError(
    'invalid_argument',
    `kind must be ${INGESTOR_KINDS.map((kind) => `${kind} (${KIND_NAMES[kind]})`)
      .join(', ')
      .replace(/, ([^,]*)$/, ' or $1')}`,
  );
}

export interface SplitConfig {
  source: NetworkSource;
  /** The network's fields, validated, credentials included. */
  network: Record<string, unknown>;
  /** The credential fields alone (for the secret box). */
  credentials: Record<string, string>;
  /** What the ingestor stores as its config: the network's fields without credentials, scoring, maxStatuses. */
  stored: Record<string, unknown>;
  rules: ScoringRules;
  maxStatuses: number;
}

/**
 * Splits a config as the user wrote it into the network's fields (validated by the network's
 * schema), `scoring` and `maxStatuses`. `keep` holds stored credentials: a credential sent as
 * REDACTED (a GET answer sent back) keeps the stored value. Errors name the field, never a value.
 */
export function splitConfig(kind: IngestorKind, config: unknown, keep: Record<string, string> = {}): SplitConfig {
  if (!config || typeof config !== 'object' || Array.isArray(config))
    throw new WorkbenchError('invalid_argument', 'config must be an object, e.g. {"instance": "https://mastodon.social", "hashtag": "rust"}');
  const {scoring, maxStatuses, ...fields} = config as Record<string, unknown>;
  const source = networkOf(kind);
  for (const field of source.credentialFields) {
    if (fields[field] !== REDACTED) continue;
    if (keep[field] === undefined) throw new WorkbenchError('invalid_argument', `config.${field} is "${REDACTED}" but no ${field} is stored: give the value`);
    fields[field] = keep[field];
  }
  const parsed = source.configSchema.safeParse(fields);
  if (!parsed.success) throw new WorkbenchError('invalid_argument', configMessage(kind, parsed.error, fields));
  const network = parsed.data as Record<string, unknown>;
  const credentials: Record<string, string> = {};
  const stored: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(network)) {
    if ((source.credentialFields as readonly string[]).includes(name)) credentials[name] = String(value);
    else stored[name] = value;
  }
  const rules = parseScoringRules(scoring);
  if (scoring !== undefined) stored.scoring = scoring;
  const limit = INGESTOR_LIMITS.maxStatuses;
  if (maxStatuses !== undefined && !(Number.isInteger(maxStatuses) && (maxStatuses as number) >= limit.min && (maxStatuses as number) <= limit.max))
    throw new WorkbenchError('invalid_argument', `config.maxStatuses must be a whole number ${limit.min}–${limit.max}`);
  if (maxStatuses !== undefined) stored.maxStatuses = maxStatuses;
  return {source, network, credentials, stored, rules, maxStatuses: (maxStatuses as number | undefined) ?? limit.default};
}

function configMessage(kind: IngestorKind, error: z.ZodError, fields: Record<string, unknown>): string {
  const issue = error.issues[0]!;
  const where = issue.path.length ? `config.${issue.path.join('.')}` : 'config';
  if (issue.code === 'unrecognized_keys') return `config has no field ${issue.keys.join(', ')} for ${kind} (${KIND_NAMES[kind]}): see its fields in the README ("Ingestors")`;
  // zod 4 leaves the input out of an issue (unless asked to report it, which would put a credential
  // in the message), so a missing field is told from a wrong type by looking it up here.
  if (issue.code === 'invalid_type' && valueAt(fields, issue.path) === undefined) return `${where} is required for ${kind} (${KIND_NAMES[kind]})`;
  if (issue.code === 'invalid_type') return `${where} must be ${article(issue.expected)}`;
  return `${where}: ${issue.message}`;
}

function valueAt(fields: Record<string, unknown>, path: PropertyKey[]): unknown {
  let value: unknown = fields;
  for (const key of path) value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/** `a string`, `an array`: the type zod expected, in words (never the value given). */
function article(expected: string): string {
  return `${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}`;
}

export function fetchInterval(value: unknown): number {
  const {min, max} = INGESTOR_LIMITS.fetchIntervalMin;
  if (!(Number.isInteger(value) && (value as number) >= min && (value as number) <= max))
    throw new WorkbenchError('invalid_argument', `fetchIntervalMin must be a whole number of minutes ${min}–${max}`);
  return value as number;
}

export function threshold(value: unknown): number {
  const {min, max} = INGESTOR_LIMITS.filterThreshold;
  if (!(typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max))
    throw new WorkbenchError('invalid_argument', `filterThreshold must be a number ${min}–${max} (scores are 0–1)`);
  return value;
}

export function digestMode(value: unknown): DigestMode {
  if (typeof value === 'string' && (DIGEST_MODES as readonly string[]).includes(value)) return value as DigestMode;
  throw new WorkbenchError('invalid_argument', `digestMode must be ${DIGEST_MODES.join(', ').replace(/, ([^,]*)$/, ' or $1')}`);
}

export function llmFlag(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new WorkbenchError('invalid_argument', 'llmEnabled must be true or false');
  return value;
}
