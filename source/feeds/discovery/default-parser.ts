/** What discovery needs from a parser: the title and format of a body that claims to be a feed. */
export type FeedTitleParser = (body: Buffer, contentType: string | null) => {title: string; format: string};

let loading: Promise<FeedTitleParser | null> | undefined;

/**
 * The reader's parser (source/feeds/parser), loaded on first use so that discovery's callers
 * do not pay for it up front. Null when it cannot be loaded: discovery then names formats by
 * sniffing and leaves titles empty.
 */
export function loadDefaultParser(): Promise<FeedTitleParser | null> {
  loading ??= import('../parser/index.js').then(
    (module): FeedTitleParser =>
      (body, contentType) =>
        module.parseFeed(body, contentType),
    () => null,
  );
  return loading;
}
