// Representations of the gateway's feeds (spec 2, part B): rendered by source/syndication at the gateway's addresses, cached per version.
export {chooseRepresentation, documentVersion, CONTENT_TYPES, LANDING_PAGE_ITEMS, type RepresentationHeaders, type RepresentationQuery} from '../../syndication/index.js';
export {renderFeed} from './render-feed.js';
export {hubUrl, selfUrl} from './links.js';
export {createRenderCache, type RenderCache, type RenderCacheOptions} from './render-cache.js';
