/** The error inbox of spec 1: get_errors and get_incidents as pure functions over the stores. */
export {queryErrors, toUnifiedError, DEFAULT_LIMIT} from './query.js';
export {formatErrorsCompact, compactMessage} from './format.js';
export {queryIncidents, formatIncidentsCompact, incidentId, variantsLine, VARIANTS_SHOWN, type Incident, type IncidentQuery} from './incidents.js';
export {joinStories, JOIN_WINDOW_MS, type IncidentStory, type StoryBrowser, type StoryRequest, type StoryServer} from './story.js';
export {storyLines} from './story-format.js';
export {fingerprintMessage} from './fingerprint.js';
export {groupNearDuplicates, type NearGroup} from './group.js';
export type {IncidentKind} from './shape.js';
export {proxyNotFound, daemonNotConnected, formatErrorResponse} from './error-response.js';
export {parseSince} from './since.js';
export {formatAge} from './age.js';
export {isNoise} from './noise.js';
export {extractHttpMessage, statusCategory} from './http-message.js';
export {processSeverity, httpSeverity, diagnosticSeverity, customLogSeverity, BROWSER_JS_SEVERITY} from './severity.js';
export {splitJsMessage, browserLocation} from './browser-error.js';
export {truncateText, MESSAGE_LIMIT} from './truncate.js';
export {firstAppFrame} from './stack.js';
export type * from './types.js';
