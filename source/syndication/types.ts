import type {Enclosure} from '../feeds/types.js';

/**
 * What a published feed is made of, whoever publishes it: the feed gateway (its proxied feeds and
 * channels) and the GraphQL service (a table's rows, `GET /feeds/<table>`). Both hand a
 * SyndicatedFeed and its links to renderFeed() and serve the bytes with the validators it gives.
 */

/** One entry of a published feed. */
export interface FeedItem {
  /** Stable identity (RSS guid; Atom id when it is an IRI, else one made under the feed's URL from it). */
  id: string;
  title: string;
  link: string | null;
  /** HTML or text; sanitised by the renderer, never trusted. */
  description: string | null;
  author: string | null;
  /** Milliseconds since the epoch. */
  published: number;
  /** Media files (a podcast's audio), in the origin's order; absent when there are none. */
  enclosures?: Enclosure[];
  /** The origin's category names; absent when there are none. */
  categories?: string[];
}

/** A feed ready to render in any representation. */
export interface SyndicatedFeed {
  /** What the feed is called where it is served (a gateway feed's name, a table's GraphQL name): the title when it has none. */
  name: string;
  title: string;
  description: string | null;
  /** The site the feed is about (Atom rel=alternate, the RSS channel link); null: the feed's own address. */
  siteUrl: string | null;
  /** Newest first. */
  items: FeedItem[];
  /** When the content last changed (ms): Last-Modified, lastBuildDate, Atom updated. */
  updatedAt: number;
  /** A hash of the content (documentVersion()), never of build dates: the strong ETag. */
  version: string;
  /** The landing page says the copy is the last good one (the gateway's origin failed). */
  stale?: boolean;
}

/** RSS 2.0 is the default; Atom by `?format=atom`; HTML (the landing page) for a browser asking text/html. */
export type Representation = 'rss' | 'atom' | 'html';

/** Where a feed is published and who publishes it. */
export interface FeedLinks {
  /** The feed's URL: RSS and the landing page there, Atom at `?format=atom` (representationUrl()). */
  self: string;
  /** A WebSub hub announced as rel="hub" (the gateway's); none: no hub link. */
  hub?: string;
  /** RSS generator / Atom generator text. */
  generator: string;
}

/** A representation's bytes with the headers that go with them. */
export interface RenderedFeed {
  body: Buffer;
  /** e.g. `application/rss+xml; charset=utf-8`. */
  contentType: string;
  /** Strong, quoted: `"<version>-<representation>"`. */
  etag: string;
  /** HTTP date of updatedAt. */
  lastModified: string;
}
