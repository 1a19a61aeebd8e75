import {renderAtom} from './atom.js';
import {renderLandingPage} from './landing-page.js';
import {renderRss} from './rss.js';
import type {FeedLinks, RenderedFeed, Representation, SyndicatedFeed} from './types.js';

export const CONTENT_TYPES: Record<Representation, string> = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

const RENDERERS: Record<Representation, (doc: SyndicatedFeed, links: FeedLinks) => string> = {rss: renderRss, atom: renderAtom, html: renderLandingPage};

/**
 * One representation of a document with its validators. The ETag is strong — `"<version>-<representation>"`,
 * the version covering the content — so the same content always gives the same bytes and tag.
 * The landing page alone also shows the stale flag, so its tag says `-stale` while the note is shown
 * (a browser must not keep a page that no longer tells the truth). Last-Modified is updatedAt.
 */
export function renderFeed(doc: SyndicatedFeed, representation: Representation, links: FeedLinks): RenderedFeed {
  const stale = representation === 'html' && doc.stale ? '-stale' : '';
  return {
    body: Buffer.from(RENDERERS[representation](doc, links), 'utf8'),
    contentType: CONTENT_TYPES[representation],
    etag: `"${doc.version}-${representation}${stale}"`,
    lastModified: httpDate(doc.updatedAt),
  };
}

/** An HTTP date (IMF-fixdate); the epoch for a time that is not one. */
function httpDate(millis: number): string {
  const date = new Date(millis);
  return (Number.isNaN(date.getTime()) ? new Date(0) : date).toUTCString();
}
