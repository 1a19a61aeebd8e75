/** The feed surface's metadata keys (spec 3, "Metadata properties: syndicated feed surface"), all on a table. */
export const FEED_KEY = {
  timestamp: 'feed-timestamp',
  title: 'feed-title',
  body: 'feed-body',
  link: 'feed-link',
} as const;

export const FEED_KEYS: ReadonlySet<string> = new Set(Object.values(FEED_KEY));

/** The family prefix: any other `feed-*` key fails at model load. */
export const FEED_PREFIX = 'feed-';
