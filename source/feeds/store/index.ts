// The reader's storage: knex over SQLite (default), PostgreSQL or MySQL/MariaDB, migrated on open.
export {openStore, type Store} from './open-store.js';
export {defaultReaderDatabase, storeConfig} from './open-store.js';
export type {Dialect} from '../../storage/connection.js';
export {
  feedRecord,
  feedsWithUnread,
  findFeedRow,
  findFeedIdByUrl,
  insertFeedRow,
  updateFeedRow,
  deleteFeedRow,
  dueFeeds,
  urlHash,
  allowsPrivate,
  addUnread,
  nextSnoozeEnd,
  type FeedRow,
  type FeedPatch,
  type NewFeed,
} from './feed-rows.js';
export {savePoll, saveNewFeed, storedKey, type PolledItem} from './save-poll.js';
export {isUniqueViolation} from '../../storage/unique-violation.js';
export {pageArticles, findFullArticle, articleExists, setArticleRead, setArticleSnooze, markFeedRead, categoryCounts, type ArticleFilter} from './article-queries.js';
export {
  allListRows,
  findListRow,
  findPublicListRow,
  insertListRow,
  deleteListRow,
  addListItem,
  removeListItem,
  touchListsOfFeed,
  listEntries,
  unreadPerList,
  type ListRow,
  type ListEntryRow,
} from './list-rows.js';
export {millis, isoOrNull} from '../../storage/time.js';
export {parseCategories} from './article-rows.js';
export {
  allIngestorRows,
  findIngestorRow,
  insertIngestorRow,
  updateIngestorRow,
  ingestorOfFeed,
  ingestorFeedUrl,
  isIngestorFeedUrl,
  dueIngestors,
  type IngestorRow,
  type NewIngestorRow,
  type IngestorPatchRow,
} from './ingestor-rows.js';
export {ledgerRows, ledgerKeysBetween, authorsUsual, keptFingerprints, newestPosted, pendingRows, type LedgerRow, type Fate} from './ingestor-ledger.js';
export {saveCycle, saveDigest, type CycleWrite, type LedgerWrite} from './save-cycle.js';
export {streamPage, streamRowsByIds, listTitlesOf, setReadMany, markStreamRead, newestPerFeed, type StreamQuery, type StreamRow} from './stream-queries.js';
export {loadEnclosures} from './enclosure-rows.js';
