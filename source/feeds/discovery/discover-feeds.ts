import {WorkbenchError, describeError, isWorkbenchError} from '../../core/errors.js';
import {targetRefusal} from '../../net/address-policy.js';
import type {Network} from '../../net/safe-lookup.js';
import type {FetchResult} from '../contracts.js';
import {transportError} from '../fetcher/fetch-errors.js';
import {fetchFeed} from '../fetcher/fetch-feed.js';
import {parseFeedUrl} from '../fetcher/feed-url.js';
import type {DiscoveredFeed, FeedFormat} from '../types.js';
import {loadDefaultParser, type FeedTitleParser} from './default-parser.js';
import {feedLinks} from './html-links.js';
import {isFeedContentType, sniffFeedFormat} from './sniff.js';
import {decodeFeedBody} from '../encoding/decode-body.js';
import {wellKnownCandidates} from './well-known.js';

export interface DiscoverOptions {
  fetch?: typeof fetchFeed;
  /** Reads title and format of a feed body; defaults to source/feeds/parser's parseFeed. */
  parse?: FeedTitleParser;
  /** Well-known paths probed at once (default 4): discovery should not hammer a site. */
  probeConcurrency?: number;
  /** Per probe (default 10 s): a missing /feed should not cost the full fetch timeout. */
  probeTimeoutMs?: number;
  /** Whether the URL may name a private or loopback host (default true: the user typed it). */
  allowPrivate?: boolean;
  /** Name resolution and dialling for every fetch (tests inject one). */
  network?: Network;
}

const FORMATS: readonly FeedFormat[] = ['rss', 'atom', 'rdf', 'json'];

/**
 * Feeds reachable from a URL, as Miniflux finds them: the URL itself when it is a feed; else the
 * page's <link rel="alternate"> feeds; else the well-known paths that answer with a feed. [] when
 * none (the service answers not_a_feed). Fetch errors of the URL itself propagate; a URL that
 * looks like a feed but does not parse throws the parser's error.
 *
 * A page reached at a public address leads to public addresses only (source/net/address-policy.ts):
 * its links to private, loopback or link-local hosts are dropped (when they were all it had,
 * their refusal is the error), and the well-known paths beside it are probed under that rule.
 */
export async function discoverFeeds(url: string, options: DiscoverOptions = {}): Promise<DiscoveredFeed[]> {
  const requested = parseFeedUrl(url).href;
  const fetch = options.fetch ?? fetchFeed;
  const page = await fetch(requested, {allowPrivate: options.allowPrivate, network: options.network});
  const self = await asFeed(requested, page, options.parse, true);
  if (self) return [self];

  const allowPrivate = options.allowPrivate !== false && page.viaPublic !== true;
  const linked = feedLinks(decodeFeedBody(page.body, page.contentType), page.finalUrl);
  if (linked.length > 0) return allowPrivate ? linked : admittedLinks(linked, options.network);
  return probeWellKnown(page.finalUrl, fetch, {...options, allowPrivate});
}

async function admittedLinks(linked: DiscoveredFeed[], network: Network | undefined): Promise<DiscoveredFeed[]> {
  const refusals = await Promise.all(linked.map((feed) => targetRefusal(new URL(feed.url), {allowPrivate: false}, network)));
  const admitted = linked.filter((_, index) => refusals[index] === null);
  if (admitted.length === 0) throw transportError(refusals[0], linked[0]!.url);
  return admitted;
}

async function asFeed(requested: string, result: FetchResult, parse: FeedTitleParser | undefined, strict: boolean): Promise<DiscoveredFeed | null> {
  const sniffed = sniffFeedFormat(result.body);
  if (sniffed === null && !isFeedContentType(result.contentType)) return null;
  // Temporary redirects keep the address the user gave; permanent ones replace it.
  const feedUrl = result.permanentUrl ?? requested;
  const parser = parse ?? (await loadDefaultParser());
  if (!parser) return sniffed === null ? null : {url: feedUrl, title: null, format: sniffed};
  try {
    const parsed = parser(result.body, result.contentType);
    const format = FORMATS.find((known) => known === parsed.format) ?? sniffed;
    return {url: feedUrl, title: parsed.title?.trim() || null, format};
  } catch (error) {
    if (!strict || sniffed === null) return null;
    if (isWorkbenchError(error)) throw error;
    throw new WorkbenchError('not_a_feed', `${requested} looks like ${sniffed === 'atom' ? 'an' : 'a'} ${sniffed.toUpperCase()} feed but cannot be read: ${describeError(error)}`);
  }
}

async function probeWellKnown(pageUrl: string, fetch: typeof fetchFeed, options: DiscoverOptions): Promise<DiscoveredFeed[]> {
  const candidates = wellKnownCandidates(pageUrl);
  const answers: (readonly [DiscoveredFeed, string] | null)[] = new Array(candidates.length).fill(null);
  const timeoutMs = options.probeTimeoutMs ?? 10_000;
  let next = 0;
  const worker = async () => {
    while (next < candidates.length) {
      const index = next++;
      const candidate = candidates[index]!;
      try {
        const result = await fetch(candidate, {timeoutMs, allowPrivate: options.allowPrivate, network: options.network});
        const feed = await asFeed(candidate, result, options.parse, false);
        if (feed) answers[index] = [feed, result.finalUrl] as const;
      } catch {
        // A missing or broken well-known path is the common case, not an error.
      }
    }
  };
  const workers = Math.max(1, Math.min(options.probeConcurrency ?? 4, candidates.length));
  await Promise.all(Array.from({length: workers}, worker));

  // /feed and /feed/ often land on one document: keep the first name of each.
  const found: DiscoveredFeed[] = [];
  const seen = new Set<string>();
  for (const answer of answers) {
    if (!answer) continue;
    const [feed, finalUrl] = answer;
    if (seen.has(feed.url) || seen.has(finalUrl)) continue;
    seen.add(feed.url).add(finalUrl);
    found.push(feed);
  }
  return found;
}
