// Representations of the gateway's feeds (spec 2, part B): which one a request gets, its bytes and validators, cached per version.
export {documentVersion} from './version.js';
export {chooseRepresentation, type RepresentationHeaders, type RepresentationQuery} from './negotiate.js';
export {renderFeed, CONTENT_TYPES} from './render-feed.js';
export {hubUrl, selfUrl} from './links.js';
export {createRenderCache, type RenderCache, type RenderCacheOptions} from './render-cache.js';
export {LANDING_PAGE_ITEMS} from './landing-page.js';
