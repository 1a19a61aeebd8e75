// Publishing a feed (spec 2, part B; spec 3's feed surface): which representation a request gets, its bytes and validators.
export {chooseRepresentation, type RepresentationHeaders, type RepresentationQuery} from './negotiate.js';
export {renderFeed, CONTENT_TYPES} from './render-feed.js';
export {representationUrl} from './links.js';
export {documentVersion} from './version.js';
export {LANDING_PAGE_ITEMS} from './landing-page.js';
export type {FeedItem, FeedLinks, RenderedFeed, Representation, SyndicatedFeed} from './types.js';
