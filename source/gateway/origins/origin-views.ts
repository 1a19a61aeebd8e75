import {isoOrNull} from '../../storage/index.js';
import type {OriginRecord} from '../store/origin-rows.js';
import type {FeedDocument, ProxiedFeedConfig, ProxiedFeedStatus} from '../types.js';
import {titledVersion} from './titled-version.js';

/** The document served at `/<name>`: the last good copy (the config's title first), or null before the first good poll. */
export function originDocument(feed: ProxiedFeedConfig, record: OriginRecord | null): FeedDocument | null {
  if (!record?.items || !record.version) return null;
  return {
    kind: 'proxied',
    name: feed.name,
    title: feed.title ?? record.title ?? feed.name,
    description: record.description,
    siteUrl: record.siteUrl,
    items: record.items,
    updatedAt: record.updatedAt ?? record.lastSuccessAt ?? 0,
    version: titledVersion(record.version, feed.title),
    maxAgeSeconds: Math.round(feed.pollIntervalMs / 1000),
    stale: record.stale,
  };
}

/** `GET /api/feeds/<name>/status`: what the row says, ISO times. */
export function originStatus(feed: ProxiedFeedConfig, record: OriginRecord | null, baseUrl: string): ProxiedFeedStatus {
  return {
    name: feed.name,
    origin: feed.origin,
    title: feed.title ?? record?.title ?? null,
    pollIntervalSeconds: Math.round(feed.pollIntervalMs / 1000),
    itemCount: record?.items?.length ?? 0,
    stale: record?.stale ?? false,
    lastSuccessAt: isoOrNull(record?.lastSuccessAt),
    lastFailureAt: isoOrNull(record?.lastFailureAt),
    lastError: record?.lastError ?? null,
    nextPollAt: isoOrNull(record?.nextPollAt),
    feedUrl: `${baseUrl}/${encodeURIComponent(feed.name)}`,
  };
}
