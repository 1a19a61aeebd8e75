import {renderFeed as renderSyndicated} from '../../syndication/index.js';
import type {FeedDocument, LinkBase, RenderedFeed, Representation} from '../types.js';
import {hubUrl, selfUrl} from './links.js';

/** One representation of a gateway feed (source/syndication renders it): self at `<baseUrl>/<name>`, the gateway's WebSub hub. */
export function renderFeed(doc: FeedDocument, representation: Representation, links: LinkBase): RenderedFeed {
  return renderSyndicated(doc, representation, {self: selfUrl(links, doc.name, 'rss'), hub: hubUrl(links), generator: 'workbench gateway'});
}
