/**
 * Ingestors (spec 2, part A — the Ingestor resource and the /ingestors endpoints): pull statuses
 * from a social network, score each with reasons, keep those at or above the threshold, and
 * store them as the articles of a feed of the ingestor's own (at once, or gathered into digests).
 *
 * The pipeline, one folder per stage, read in order:
 *   networks/ (fetch one network's statuses, normalised to SocialStatus)
 *   → scoring/ (signals and the model's judgement → a score with reasons)
 *   → digest/ (hourly and daily digests: gather, then one article at the boundary)
 *   → cycle/ (one fetch cycle over the store: identity, edits, deletions, pending digests)
 *   → service/ (CRUD, validation, redaction, the scheduler) over source/feeds/store.
 */
import type {z} from 'zod';
import type {Network} from '../../net/safe-lookup.js';

/** The spec's three kinds, and the networks behind them (README "Ingestors"). */
export type IngestorKind = 'kind_1' | 'kind_2' | 'kind_3';
export const INGESTOR_KINDS = ['kind_1', 'kind_2', 'kind_3'] as const;
export const NETWORK_OF_KIND = {kind_1: 'mastodon', kind_2: 'bluesky', kind_3: 'reddit'} as const;
export type NetworkName = (typeof NETWORK_OF_KIND)[IngestorKind];

export type DigestMode = 'realtime' | 'hourly' | 'daily';
export const DIGEST_MODES = ['realtime', 'hourly', 'daily'] as const;

/** What the stored value of a credential field reads as in every response. */
export const REDACTED = '[redacted]';

/** Limits and defaults of the ingestor fields (validated at every face). */
export const INGESTOR_LIMITS = {
  fetchIntervalMin: {min: 1, max: 1440, default: 15},
  /** Scores are 0..1 (scoring/README); the default drops duplicates and low-engagement replies, keeps the rest. */
  filterThreshold: {min: 0, max: 1, default: 0.25},
  /** Statuses looked at per cycle (config `maxStatuses`). */
  maxStatuses: {min: 1, max: 1000, default: 200},
} as const;

/**
 * - pending: never fetched yet
 * - ok: the last cycle worked
 * - degraded: statuses flow, but something is missing (the model could not be asked: no credential, endpoint down)
 * - rate_limited: the network said to wait (429 / Retry-After / X-RateLimit-Remaining 0); next try at nextFetchAt
 * - error: the last cycle failed (401, 500, garbage …); statusMessage says why, and what to do
 */
export type IngestorState = 'pending' | 'ok' | 'degraded' | 'rate_limited' | 'error';

/** An ingestor as every face sees it. Credential fields of `config` read REDACTED. */
export interface Ingestor {
  id: number;
  kind: IngestorKind;
  /** `mastodon`, `bluesky`, `reddit`: the network behind the kind. */
  network: NetworkName;
  config: Record<string, unknown>;
  fetchIntervalMin: number;
  digestMode: DigestMode;
  filterThreshold: number;
  llmEnabled: boolean;
  status: IngestorState;
  /** Why, in one sentence a user can act on (null when ok). Never holds a credential. */
  statusMessage: string | null;
  /** Kept statuses waiting for the next hourly/daily digest (0 in realtime). */
  pendingDigestCount: number;
  /** The feed its articles belong to (GET /articles?feed_id=…). */
  feedId: number;
  /** e.g. `Mastodon #rust on mastodon.social`. */
  title: string;
  lastFetchedAt: string | null;
  nextFetchAt: string | null;
  /** When the pending statuses become a digest article (null in realtime). */
  nextDigestAt: string | null;
  createdAt: string;
}

/** POST /ingestors and POST /ingestors/test. */
export interface IngestorInput {
  kind: IngestorKind;
  config: Record<string, unknown>;
  fetchIntervalMin?: number;
  digestMode?: DigestMode;
  filterThreshold?: number;
  llmEnabled?: boolean;
}

/** PATCH /ingestors/:id. `config` replaces the whole config; a credential field sent as REDACTED keeps the stored value. */
export interface IngestorPatch {
  fetchIntervalMin?: number;
  digestMode?: DigestMode;
  filterThreshold?: number;
  llmEnabled?: boolean;
  config?: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// networks/

/** One post of a social network, normalised. Text from outside: faces strip control characters. */
export interface SocialStatus {
  /** Stable identity on the network (Mastodon status URI, AT URI, Reddit fullname `t3_…`): the article's item key. */
  key: string;
  /** The post's web page. */
  url: string;
  author: {handle: string; name: string | null; url: string | null};
  /** Reddit's title; else null (the article title is made from the text). */
  title: string | null;
  /** Plain text (HTML reduced to text), for scoring, duplicates and titles. */
  text: string;
  /** The post as HTML when the network gives HTML (sanitised when stored); else null. */
  html: string | null;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601 when the network says the post was edited (Mastodon edited_at, Reddit edited). */
  editedAt: string | null;
  engagement: {likes: number; reposts: number; replies: number};
  /** Set when this entry is a boost/repost of another's post: who boosted it (the post itself is the original). */
  repostedBy: string | null;
  /** The key of the post this replies to, when it is a reply. */
  replyTo: string | null;
  /** Whether that reply answers the author's own post (a thread they write), which scoring does not count as a reply. */
  replyToSelf: boolean;
  /** The conversation's root key (the post's own key when it starts one): digests group by it. */
  threadKey: string;
  /** Outbound links in the post (duplicate detection: the same link posted twice). */
  links: string[];
  /** Hashtags / flair, lower case, without `#`. */
  tags: string[];
  /** The network marks it deleted or removed (Reddit `[deleted]`/`removed_by_category`). */
  deleted: boolean;
}

/** What the network said about its rate limit on the last response (X-RateLimit-*, RateLimit-*, Retry-After). */
export interface RateLimit {
  limit: number | null;
  remaining: number | null;
  /** ISO 8601: when the window resets. */
  resetAt: string | null;
  /** From Retry-After (seconds or an HTTP date), on a 429 or 503. */
  retryAfterSeconds: number | null;
}

export interface FetchRequest {
  /** At most this many statuses, newest first (pages followed until reached). */
  limit: number;
  /** Stop paging once statuses older than this ISO 8601 time are reached (the window of the last cycles). */
  since: string | null;
  signal?: AbortSignal;
  /** Name resolution and dialling (tests); default the system's, under the address policy. */
  network?: Network;
  timeoutMs?: number;
}

export interface FetchOutcome {
  /** Newest first, as the network listed them; may hold duplicates (the cycle keeps the first). */
  statuses: SocialStatus[];
  /**
   * True when the listing is in time order and complete between its oldest and newest status: a
   * stored status inside that span that is absent now was deleted. False (Reddit `hot`): only
   * `deleted` marks count.
   */
  timeOrdered: boolean;
  rateLimit: RateLimit | null;
  /** Requests made (pages, token exchanges), for the bench and the status line. */
  requests: number;
}

/**
 * Errors a network fetch throws, all WorkbenchError:
 * - unauthorized (401/403): message names the credential field to fix, never its value
 * - rate_limited — as a WorkbenchError('feed_unreachable') with details {rateLimit: RateLimit}: 429
 * - feed_unreachable: refused/timeout/5xx (message says which, with the status)
 * - not_a_feed: the answer is not the documented JSON (garbage, HTML)
 * - invalid_argument: config problems found only by asking (unknown account, unknown list)
 */
export interface NetworkSource<Config extends Record<string, unknown> = Record<string, unknown>> {
  kind: IngestorKind;
  network: NetworkName;
  /** Validates and normalises `config` (zod): what to follow, where, credentials. Messages name the field. */
  configSchema: z.ZodType<Config>;
  /** Fields of Config that are credentials: encrypted at rest, REDACTED in every response and log line. */
  credentialFields: readonly (keyof Config & string)[];
  /** The feed's title and site URL for this config. */
  describe(config: Config): {title: string; siteUrl: string};
  fetch(config: Config, request: FetchRequest): Promise<FetchOutcome>;
}

// ---------------------------------------------------------------------------------------------
// scoring/

export type ScoreSignal = 'engagement' | 'keyword' | 'author' | 'boost' | 'reply' | 'duplicate' | 'age' | 'llm';

/** One reason behind a score: which signal, how much it moved the score (logit units, + or −), and why in words. */
export interface ScoreReason {
  signal: ScoreSignal;
  effect: number;
  /** e.g. `engagement 3.1× this author's usual (12 vs 4)`, `keyword "rust" (+2)`, `a boost by @bob (−0.5)`. */
  detail: string;
}

/** The user's weights, from the ingestor's config (`config.scoring`), documented in scoring/README.md. */
export interface ScoringRules {
  /** Word or phrase (case-insensitive, whole words) → weight in logit units (+2 likes it, −3 hides it). */
  keywords: Record<string, number>;
  /** Author handle (as SocialStatus.author.handle) → weight. */
  authors: Record<string, number>;
  /** Effect of a boost/repost (default −0.5). */
  boostEffect: number;
  /** Effect of a reply to someone else (default −1). A reply in the author's own thread is not penalised. */
  replyEffect: number;
  /** Score falls by half its distance to 0 every this many hours (default 24). */
  halfLifeHours: number;
  /** What the user cares about, in words, for the model (llmEnabled). */
  interests: string;
}

export interface ScoredStatus {
  status: SocialStatus;
  /** 0..1: sigmoid of the summed effects. */
  score: number;
  kept: boolean;
  reasons: ScoreReason[];
}

/** What scoring knows beyond the batch: each author's usual engagement and what was seen before. */
export interface ScoringContext {
  rules: ScoringRules;
  threshold: number;
  now: Date;
  /** Author handle → median engagement (likes + 2·reposts + replies) of their earlier statuses. */
  authorUsual: Map<string, number>;
  /** Links and text fingerprints of statuses kept before (duplicates across cycles). */
  seenLinks: Set<string>;
  seenFingerprints: Set<string>;
  /** The model's relevance per status key (0..1 with its reason), when asked. */
  judgements: Map<string, Judgement>;
}

export interface Judgement {
  relevance: number;
  why: string;
}

/** Asks a model how relevant statuses are to the user's interests: batched (≤ 50 per call), bounded per cycle. */
export interface RelevanceJudge {
  judge(statuses: SocialStatus[], interests: string, options: {maxCalls: number; signal?: AbortSignal}): Promise<JudgeOutcome>;
}

export interface JudgeOutcome {
  judgements: Map<string, Judgement>;
  calls: number;
  /** Statuses left without a judgement (budget spent, or the model failed): the status line says so. */
  unjudged: number;
  /** Set when the model could not be asked at all or failed part-way: one sentence (no credential, endpoint down). */
  problem: string | null;
}

// ---------------------------------------------------------------------------------------------
// POST /ingestors/test and a cycle's summary

/** A status as the test answer shows it: enough to recognise it, and why it scored what it did. */
export interface TestedStatus {
  key: string;
  url: string;
  author: string;
  /** The first 280 characters of the text (title first for Reddit). */
  text: string;
  createdAt: string;
  score: number;
  reasons: ScoreReason[];
}

export interface LlmOutcome {
  /** off: llmEnabled false; ok: every status judged (or cached); partial: some left (budget); unavailable: not asked (problem says why). */
  state: 'off' | 'ok' | 'partial' | 'unavailable';
  calls: number;
  cached: number;
  problem: string | null;
}

export interface IngestorTestResult {
  fetched: number;
  kept: TestedStatus[];
  dropped: TestedStatus[];
  llm: LlmOutcome;
  rateLimit: RateLimit | null;
}

/** What one stored cycle did (POST /feeds/:id/refresh of an ingestor's feed answers newArticles from it). */
export interface CycleSummary {
  fetched: number;
  kept: number;
  dropped: number;
  /** New articles (realtime) or new pending statuses (digest modes). */
  added: number;
  updated: number;
  deleted: number;
  /** Digest articles written in this cycle (a boundary passed). */
  digests: number;
  llm: LlmOutcome;
}

/** POST /ingestors/test takes a definition, or the id of a stored ingestor (its stored credentials are used). */
export type IngestorTestRequest = IngestorInput | {id: number};

// ---------------------------------------------------------------------------------------------
// Between the service and the cycle

/**
 * An ingestor ready to run: its config validated and split, its credentials decrypted. Built by
 * the service (from a stored row, or from a POST /ingestors/test definition); never leaves the
 * process, never serialised.
 */
export interface RunnableIngestor {
  /** null for a definition under test (nothing is stored). */
  id: number | null;
  feedId: number | null;
  kind: IngestorKind;
  source: NetworkSource;
  /** Validated by source.configSchema, credentials included. */
  networkConfig: Record<string, unknown>;
  /** The credential values, to cut out of any message that might echo one. */
  secrets: string[];
  maxStatuses: number;
  rules: ScoringRules;
  threshold: number;
  llmEnabled: boolean;
  digestMode: DigestMode;
  fetchIntervalMin: number;
  consecutiveFailures: number;
  /** Epoch ms of the next digest boundary (null in realtime or before the first cycle). */
  nextDigestAt: number | null;
}
