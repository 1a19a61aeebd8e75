import {WorkbenchError, describeError} from '../../../core/errors.js';
import {redact} from '../../../agent/credentials/redact.js';
import {authorsUsual, keptFingerprints, ledgerKeysBetween, ledgerRows, newestPosted, pendingRows, type LedgerRow, type LedgerWrite} from '../../store/index.js';
import {saveCycle, saveDigest, storedKey} from '../../store/index.js';
import {nextBoundary} from '../digest/boundary.js';
import {digestArticle} from '../digest/digest-article.js';
import {engagementOf, scoreStatuses, statusFingerprints} from '../scoring/index.js';
import type {CycleSummary, FetchOutcome, IngestorTestResult, RunnableIngestor, ScoredStatus, SocialStatus} from '../types.js';
import type {CycleDeps} from './deps.js';
import {judgeStatuses} from './judge.js';
import {failure, nextAfterSuccess} from './schedule.js';
import {contentHash, statusItem, testedStatus} from './status-item.js';

const DAY = 86_400_000;
/** Each fetch pages back to a day before the newest status seen: edits and deletions there are caught. */
const WINDOW = DAY;
/** A copy of a status kept in the last week is a duplicate. */
const DUPLICATE_MEMORY = 7 * DAY;
/**
 * A dropped status is looked at again while it is fetched (its engagement grows), and forgotten
 * once it is two weeks old and no longer listed: far beyond the fetch window, so it is not
 * fetched again (were it listed anyway, it would simply be scored afresh).
 */
const DROPPED_MEMORY = 14 * DAY;

/**
 * One cycle of a stored ingestor: in digest modes, first the digest whose boundary passed (of the
 * statuses gathered before it: those this cycle finds wait for the next one, and a failing network
 * does not hold a digest back); then fetch (when `fetch`), score, decide each status's fate, and
 * write it all in one transaction. A failed fetch is recorded on the ingestor (status, message,
 * backoff) and thrown.
 */
export async function runIngestorCycle(deps: CycleDeps, ingestor: RunnableIngestor, options: {fetch: boolean; title: string}): Promise<CycleSummary> {
  if (ingestor.id === null || ingestor.feedId === null) throw new WorkbenchError('invalid_argument', 'only a stored ingestor runs a cycle');
  const id = ingestor.id;
  const feedId = ingestor.feedId;
  const {db, dialect} = deps.store;
  const summary: CycleSummary = {fetched: 0, kept: 0, dropped: 0, added: 0, updated: 0, deleted: 0, digests: 0, llm: {state: 'off', calls: 0, cached: 0, problem: null}};
  let nextDigestAt = ingestor.nextDigestAt;
  if (ingestor.digestMode !== 'realtime' && nextDigestAt !== null && deps.now().getTime() >= nextDigestAt) {
    summary.digests = await writeDueDigest(deps, ingestor, nextDigestAt, options.title);
    nextDigestAt = nextBoundary(ingestor.digestMode, deps.now().getTime());
  }
  if (options.fetch) {
    const nowMs = deps.now().getTime();
    const newest = await newestPosted(db, id);
    let fetched: FetchOutcome;
    try {
      fetched = await ingestor.source.fetch(ingestor.networkConfig, {
        limit: ingestor.maxStatuses,
        since: newest === null ? null : new Date(newest - WINDOW).toISOString(),
        network: deps.network,
      });
    } catch (error) {
      const failed = failure(error, nowMs, ingestor.fetchIntervalMin, ingestor.consecutiveFailures, ingestor.secrets);
      await saveCycle(db, dialect, {
        ingestorId: id,
        feedId,
        nowMs,
        ledger: [],
        deleted: [],
        ingestor: {
          status: failed.status,
          status_message: failed.message,
          consecutive_failures: ingestor.consecutiveFailures + 1,
          last_fetched_at: nowMs,
          next_fetch_at: failed.nextFetchAt,
        },
        // The feed mirrors its ingestor, so GET /feeds says why it is not filling.
        feed: {fetch_status: 'error', last_error: failed.message, last_fetched_at: nowMs, next_fetch_at: failed.nextFetchAt},
      });
      throw new WorkbenchError(failed.status === 'rate_limited' ? 'feed_unreachable' : errorCode(error), failed.message);
    }
    const decided = await decide(deps, ingestor, fetched.statuses, true);
    nextDigestAt ??= nextBoundary(ingestor.digestMode, nowMs);
    const deleted = await deletions(deps, id, fetched, decided.known);
    const problem = decided.llm.problem;
    const message = problem ? `statuses are scored without the model: ${problem}` : null;
    const nextFetchAt = nextAfterSuccess(nowMs, ingestor.fetchIntervalMin, fetched.rateLimit);
    const counts = await saveCycle(db, dialect, {
      ingestorId: id,
      feedId,
      nowMs,
      ledger: decided.writes,
      deleted,
      ingestor: {
        status: problem ? 'degraded' : 'ok',
        status_message: message,
        consecutive_failures: 0,
        last_fetched_at: nowMs,
        next_fetch_at: nextFetchAt,
        next_digest_at: nextDigestAt,
      },
      feed: {fetch_status: 'ok', last_error: message, last_fetched_at: nowMs, last_success_at: nowMs, next_fetch_at: nextFetchAt},
      forgetDroppedBefore: nowMs - DROPPED_MEMORY,
    });
    // New pending statuses: never seen, or dropped before and kept now.
    const pendingAdded = decided.writes.filter((row) => row.fate === 'pending' && decided.known.get(row.key)?.fate !== 'pending').length;
    Object.assign(summary, {
      fetched: fetched.statuses.length,
      kept: decided.scored.filter((item) => item.kept).length,
      dropped: decided.scored.filter((item) => !item.kept).length,
      added: counts.added + pendingAdded,
      updated: counts.updated,
      deleted: deleted.length,
      llm: decided.llm,
    });
  }
  return summary;
}

/** One cycle of a definition or a stored ingestor, scored, nothing stored (POST /ingestors/test). */
export async function testIngestorCycle(deps: CycleDeps, ingestor: RunnableIngestor): Promise<IngestorTestResult> {
  let fetched: FetchOutcome;
  try {
    fetched = await ingestor.source.fetch(ingestor.networkConfig, {limit: ingestor.maxStatuses, since: null, network: deps.network});
  } catch (error) {
    // Networks name the field to fix, never its value; a credential echoed anyway is cut out here too.
    throw new WorkbenchError(errorCode(error), redact(describeError(error), ingestor.secrets), error instanceof WorkbenchError ? error.details : undefined);
  }
  const decided = await decide(deps, ingestor, fetched.statuses, false);
  return {
    fetched: fetched.statuses.length,
    kept: decided.scored.filter((item) => item.kept).map(testedStatus),
    dropped: decided.scored.filter((item) => !item.kept).map(testedStatus),
    llm: decided.llm,
    rateLimit: fetched.rateLimit,
  };
}

interface Decided {
  scored: ScoredStatus[];
  writes: LedgerWrite[];
  known: Map<string, LedgerRow>;
  llm: CycleSummary['llm'];
}

/** Scores what is new, changed or was dropped before, and decides each one's fate (README "Identity"). */
async function decide(deps: CycleDeps, ingestor: RunnableIngestor, fetchedStatuses: SocialStatus[], storing: boolean): Promise<Decided> {
  const {db} = deps.store;
  const nowMs = deps.now().getTime();
  const unique = new Map<string, SocialStatus>();
  for (const status of fetchedStatuses) if (!unique.has(status.key) && !status.deleted) unique.set(status.key, status);
  const statuses = [...unique.values()].map((status) => ({status, hash: contentHash(status)}));
  const id = ingestor.id;
  // Statuses marked deleted are looked up too: their articles or pending entries go (deletions()).
  const listedKeys = [...new Set(fetchedStatuses.map((status) => status.key))];
  const known = id === null ? new Map<string, LedgerRow>() : await ledgerRows(db, id, listedKeys);
  // Unchanged statuses already kept, pending or digested are done; dropped ones are looked at again (their engagement grows).
  // A test looks at every status, as if none had been seen.
  const todo = storing
    ? statuses.filter(({status, hash}) => {
        const row = known.get(status.key);
        return !row || row.fate === 'dropped' || (row.content_hash !== hash && row.fate !== 'digested');
      })
    : statuses;
  const authors = [...new Set(todo.map(({status}) => status.author.handle))];
  const [authorUsual, seen] =
    id === null
      ? [new Map<string, number>(), new Set<string>()]
      : await Promise.all([authorsUsual(db, id, authors), keptFingerprints(db, id, nowMs - DUPLICATE_MEMORY, new Set([...unique.keys()].map(storedKey)))]);
  const {judgements, fresh, outcome} = await judgeStatuses(deps, ingestor, todo, known);
  const scored = scoreStatuses(
    todo.map(({status}) => status),
    {rules: ingestor.rules, threshold: ingestor.threshold, now: deps.now(), authorUsual, seenLinks: seen, seenFingerprints: seen, judgements},
  );
  if (!storing) return {scored, writes: [], known, llm: outcome};
  const writes = scored.map((item, index): LedgerWrite => {
    const {status} = item;
    const hash = todo[index]!.hash;
    const row = known.get(status.key);
    const prints = statusFingerprints(status);
    const judgement = judgements.get(status.key);
    const base = {
      key: status.key,
      contentHash: hash,
      author: status.author.handle,
      engagement: engagementOf(status),
      score: item.score,
      postedAt: postedAt(status, nowMs),
      fingerprints: [...prints.links, ...(prints.fingerprint ? [prints.fingerprint] : [])],
      judgement: judgement && (fresh.has(status.key) || row?.llm_hash === hash) ? {...judgement, hash} : null,
    };
    // An edit of a kept or pending status updates it whatever its new score: it was shown already.
    if (row?.fate === 'kept')
      return {
        ...base,
        fate: 'kept',
        payload: null,
        article: row.article_id ? {action: 'update', id: Number(row.article_id), item: statusItem(status)} : {action: 'keep', id: null},
      };
    if (row?.fate === 'pending') return {...base, fate: 'pending', payload: JSON.stringify(item), article: null};
    if (!item.kept) return {...base, fate: 'dropped', payload: null, article: null};
    if (ingestor.digestMode === 'realtime') return {...base, fate: 'kept', payload: null, article: {action: 'insert', item: statusItem(status)}};
    return {...base, fate: 'pending', payload: JSON.stringify(item), article: null};
  });
  return {scored, writes, known, llm: outcome};
}

/**
 * What the network no longer has: statuses it marks deleted, and, when the listing is in time
 * order, the stored ones inside the span this fetch covers (its oldest to newest original post)
 * that it did not list. Digested ones stay (the digest was written).
 */
async function deletions(deps: CycleDeps, id: number, fetched: FetchOutcome, known: Map<string, LedgerRow>): Promise<Array<{key: string; articleId: number | null}>> {
  const gone = new Map<string, number | null>();
  for (const status of fetched.statuses) {
    const row = known.get(status.key);
    if (status.deleted && row && (row.fate === 'kept' || row.fate === 'pending')) gone.set(storedKey(status.key), row.article_id === null ? null : Number(row.article_id));
  }
  const originals = fetched.statuses.filter((status) => !status.repostedBy && !status.deleted);
  if (fetched.timeOrdered && originals.length > 0 && originals.every((status) => Number.isFinite(Date.parse(status.createdAt)))) {
    const times = originals.map((status) => Date.parse(status.createdAt));
    const listed = new Set(fetched.statuses.map((status) => storedKey(status.key)));
    for (const row of await ledgerKeysBetween(deps.store.db, id, Math.min(...times), Math.max(...times)))
      if (!listed.has(row.status_key)) gone.set(row.status_key, row.article_id === null ? null : Number(row.article_id));
  }
  return [...gone].map(([key, articleId]) => ({key, articleId}));
}

/** In digest modes, when the boundary has passed and statuses are pending: one digest article. */
async function writeDueDigest(deps: CycleDeps, ingestor: RunnableIngestor, nextDigestAt: number | null, title: string): Promise<number> {
  if (ingestor.digestMode === 'realtime' || nextDigestAt === null || ingestor.id === null || ingestor.feedId === null) return 0;
  const nowMs = deps.now().getTime();
  if (nowMs < nextDigestAt) return 0;
  const pending = await pendingRows(deps.store.db, ingestor.id);
  const following = nextBoundary(ingestor.digestMode, nowMs)!;
  if (pending.length === 0) {
    await deps.store.db('ingestors').where('id', ingestor.id).update({next_digest_at: following});
    return 0;
  }
  const statuses = pending.flatMap((row) => {
    try {
      return [JSON.parse(row.payload ?? '') as ScoredStatus];
    } catch {
      return [];
    }
  });
  const item = digestArticle(title, ingestor.digestMode, nextDigestAt, statuses);
  item.guid = `digest:${ingestor.id}:${nextDigestAt}`;
  const wrote = await saveDigest(deps.store.db, {
    ingestorId: ingestor.id,
    feedId: ingestor.feedId,
    nowMs,
    keys: pending.map((row) => row.status_key),
    item,
    nextDigestAt: following,
  });
  return wrote ? 1 : 0;
}

/** When a status was posted (ms): a time the network garbled reads as now, never NaN in a BIGINT column. */
function postedAt(status: SocialStatus, nowMs: number): number {
  const ms = Date.parse(status.createdAt);
  return Number.isFinite(ms) ? ms : nowMs;
}

function errorCode(error: unknown) {
  return error instanceof WorkbenchError ? error.code : 'feed_unreachable';
}
