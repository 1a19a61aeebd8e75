import {WorkbenchError} from '../../../core/errors.js';
import {isoOrNull} from '../../../storage/time.js';
import {
  allIngestorRows,
  deleteFeedRow,
  dueIngestors,
  findIngestorRow,
  insertIngestorRow,
  updateFeedRow,
  updateIngestorRow,
  type IngestorPatchRow,
  type IngestorRow,
  type Store,
} from '../../store/index.js';
import type {CycleDeps} from '../cycle/deps.js';
import {networkOf} from '../networks/index.js';
import {runIngestorCycle, testIngestorCycle} from '../cycle/run-cycle.js';
import {nextBoundary} from '../digest/boundary.js';
import {
  NETWORK_OF_KIND,
  REDACTED,
  INGESTOR_LIMITS,
  type CycleSummary,
  type DigestMode,
  type Ingestor,
  type IngestorInput,
  type IngestorKind,
  type IngestorPatch,
  type IngestorState,
  type IngestorTestRequest,
  type IngestorTestResult,
  type RunnableIngestor,
} from '../types.js';
import type {SecretBox} from './secrets.js';
import {digestMode, fetchInterval, ingestorKind, llmFlag, splitConfig, threshold} from './validate.js';

export interface IngestorContext {
  store: Store;
  box: SecretBox;
  cycle: CycleDeps;
  nowMs(): number;
}

/** The ingestors' part of the ReaderService (source/feeds/contracts.ts), plus what the scheduler and refresh need. */
export function ingestorService(context: IngestorContext) {
  const {store} = context;
  const {db} = store;

  const row = async (id: number): Promise<IngestorRow> => {
    if (!Number.isInteger(id) || id < 1) throw new WorkbenchError('invalid_argument', 'ingestor id must be a positive whole number');
    const found = await findIngestorRow(db, id);
    if (!found) throw new WorkbenchError('not_found', `no ingestor ${id}`);
    return found;
  };

  const runnable = (found: IngestorRow): RunnableIngestor => {
    const kind = found.kind as IngestorKind;
    const credentials = found.secrets ? context.box.open(found.secrets) : {};
    const split = splitConfig(kind, {...(JSON.parse(found.config) as Record<string, unknown>), ...credentials});
    return {
      id: Number(found.id),
      feedId: Number(found.feed_id),
      kind,
      source: split.source,
      networkConfig: split.network,
      secrets: Object.values(credentials),
      maxStatuses: split.maxStatuses,
      rules: split.rules,
      threshold: Number(found.filter_threshold),
      llmEnabled: Boolean(found.llm_enabled),
      digestMode: found.digest_mode as DigestMode,
      fetchIntervalMin: Number(found.fetch_interval_min),
      consecutiveFailures: Number(found.consecutive_failures),
      nextDigestAt: found.next_digest_at === null ? null : Number(found.next_digest_at),
    };
  };

  // The stored config is the network's validated fields (credentials apart): what describe() reads.
  const titleOf = (found: IngestorRow) => networkOf(found.kind as IngestorKind).describe(JSON.parse(found.config) as Record<string, unknown>).title;

  const record = (found: IngestorRow): Ingestor => {
    const kind = found.kind as IngestorKind;
    const config = JSON.parse(found.config) as Record<string, unknown>;
    let sealed: Record<string, string>;
    let status = found.status as IngestorState;
    let statusMessage = found.status_message;
    try {
      sealed = found.secrets ? context.box.open(found.secrets) : {};
    } catch (error) {
      status = 'error';
      statusMessage = (error as Error).message;
      // Sealed but unreadable: which fields are set cannot be read, so each credential field of the
      // network (one per network) reads REDACTED, still saying that a credential is stored.
      sealed = Object.fromEntries(networkOf(kind).credentialFields.map((name) => [name, '']));
    }
    for (const name of Object.keys(sealed)) config[name] = REDACTED;
    return {
      id: Number(found.id),
      kind,
      network: NETWORK_OF_KIND[kind],
      config,
      fetchIntervalMin: Number(found.fetch_interval_min),
      digestMode: found.digest_mode as DigestMode,
      filterThreshold: Number(found.filter_threshold),
      llmEnabled: Boolean(found.llm_enabled),
      status,
      statusMessage,
      pendingDigestCount: Number(found.pending ?? 0),
      feedId: Number(found.feed_id),
      title: titleOf(found),
      lastFetchedAt: isoOrNull(found.last_fetched_at),
      nextFetchAt: isoOrNull(found.next_fetch_at),
      nextDigestAt: isoOrNull(found.next_digest_at),
      createdAt: isoOrNull(found.created_at)!,
    };
  };

  const definition = (input: IngestorInput) => {
    if (!input || typeof input !== 'object') throw new WorkbenchError('invalid_argument', 'an ingestor is an object: {kind, config, …}');
    const kind = ingestorKind(input.kind);
    const split = splitConfig(kind, input.config);
    return {
      kind,
      split,
      fetchIntervalMin: input.fetchIntervalMin === undefined ? INGESTOR_LIMITS.fetchIntervalMin.default : fetchInterval(input.fetchIntervalMin),
      digestMode: input.digestMode === undefined ? 'realtime' : digestMode(input.digestMode),
      filterThreshold: input.filterThreshold === undefined ? INGESTOR_LIMITS.filterThreshold.default : threshold(input.filterThreshold),
      llmEnabled: input.llmEnabled === undefined ? false : llmFlag(input.llmEnabled),
    };
  };

  const service = {
    async listIngestors(): Promise<Ingestor[]> {
      return (await allIngestorRows(db)).map(record);
    },
    getIngestor: async (id: number) => record(await row(id)),
    async createIngestor(input: IngestorInput): Promise<Ingestor> {
      const made = definition(input);
      const nowMs = context.nowMs();
      const {title, siteUrl} = made.split.source.describe(made.split.network);
      const id = await insertIngestorRow(
        db,
        store.dialect,
        {
          kind: made.kind,
          config: JSON.stringify(made.split.stored),
          secrets: Object.keys(made.split.credentials).length ? context.box.seal(made.split.credentials) : null,
          fetch_interval_min: made.fetchIntervalMin,
          digest_mode: made.digestMode,
          filter_threshold: made.filterThreshold,
          llm_enabled: made.llmEnabled,
        },
        {title, site_url: siteUrl, category: null},
        nowMs,
      );
      return record(await row(id));
    },
    async updateIngestor(id: number, patch: IngestorPatch): Promise<Ingestor> {
      const found = await row(id);
      if (!patch || typeof patch !== 'object')
        throw new WorkbenchError('invalid_argument', 'a change is an object: {fetchIntervalMin, digestMode, filterThreshold, llmEnabled, config}');
      const changes: IngestorPatchRow = {};
      if (patch.fetchIntervalMin !== undefined) changes.fetch_interval_min = fetchInterval(patch.fetchIntervalMin);
      if (patch.filterThreshold !== undefined) changes.filter_threshold = threshold(patch.filterThreshold);
      if (patch.llmEnabled !== undefined) changes.llm_enabled = llmFlag(patch.llmEnabled);
      if (patch.digestMode !== undefined) {
        changes.digest_mode = digestMode(patch.digestMode);
        changes.next_digest_at = nextBoundary(changes.digest_mode as DigestMode, context.nowMs());
      }
      if (patch.config !== undefined) {
        let stored: Record<string, string> = {};
        try {
          stored = found.secrets ? context.box.open(found.secrets) : {};
        } catch {
          // A key that cannot open them: the new config must give the credentials again.
        }
        const split = splitConfig(found.kind as IngestorKind, patch.config, stored);
        changes.config = JSON.stringify(split.stored);
        changes.secrets = Object.keys(split.credentials).length ? context.box.seal(split.credentials) : null;
        // A new config is fetched at the next round, and its status starts afresh.
        Object.assign(changes, {next_fetch_at: context.nowMs(), status: 'pending', status_message: null, consecutive_failures: 0});
        const {title, siteUrl} = split.source.describe(split.network);
        await updateFeedRow(db, Number(found.feed_id), {title, site_url: siteUrl});
      }
      await updateIngestorRow(db, id, changes);
      return record(await row(id));
    },
    async deleteIngestor(id: number): Promise<void> {
      const found = await row(id);
      // The feed goes, and with it (foreign keys) the ingestor, its ledger and its articles.
      await deleteFeedRow(db, Number(found.feed_id), context.nowMs());
    },
    async testIngestor(request: IngestorTestRequest): Promise<IngestorTestResult> {
      if (request && typeof request === 'object' && 'id' in request && !('kind' in request)) return testIngestorCycle(context.cycle, runnable(await row(request.id)));
      const made = definition(request as IngestorInput);
      return testIngestorCycle(context.cycle, {
        id: null,
        feedId: null,
        kind: made.kind,
        source: made.split.source,
        networkConfig: made.split.network,
        secrets: Object.values(made.split.credentials),
        maxStatuses: made.split.maxStatuses,
        rules: made.split.rules,
        threshold: made.filterThreshold,
        llmEnabled: made.llmEnabled,
        digestMode: made.digestMode,
        fetchIntervalMin: made.fetchIntervalMin,
        consecutiveFailures: 0,
        nextDigestAt: null,
      });
    },
    /** A cycle now: the fetch when due (or forced: refresh), the digest when its boundary passed. */
    async runIngestor(id: number, options: {force?: boolean} = {}): Promise<CycleSummary> {
      const found = await row(id);
      const due = found.next_fetch_at === null || Number(found.next_fetch_at) <= context.nowMs();
      return runIngestorCycle(context.cycle, runnable(found), {fetch: options.force === true || due, title: titleOf(found)});
    },
    dueIngestors: (now: Date, limit: number) => dueIngestors(db, now.getTime(), limit),
  };
  return service;
}

export type IngestorService = ReturnType<typeof ingestorService>;
