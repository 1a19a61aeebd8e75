// JSON schemas of the gateway API: request shapes checked by ajv, response shapes serialised by
// fast-json-stringify. Field names and types follow source/gateway/types.ts.
import {CHANNEL_TTL_MAX_HOURS} from '../../source/gateway/index.js';

export {errorSchema, errorResponses, noQuery} from '../kit/schemas.js';

const nullableString = {type: ['string', 'null']} as const;
const time = {type: 'string', description: 'ISO 8601'} as const;
const nullableTime = {type: ['string', 'null'], description: 'ISO 8601 or null'} as const;

/** A feed's name or a channel's id; an unknown one answers 404. */
export const nameParams = {type: 'object', required: ['name'], additionalProperties: false, properties: {name: {type: 'string', minLength: 1, maxLength: 100}}} as const;
export const idParams = {type: 'object', required: ['id'], additionalProperties: false, properties: {id: {type: 'string', minLength: 1, maxLength: 100}}} as const;

/** `?format=rss|atom|html` and nothing else; a wrong value answers 400 from the negotiation. */
export const formatQuery = {type: 'object', additionalProperties: false, properties: {format: {type: 'string', maxLength: 32}}} as const;

export const refreshResultSchema = {
  type: 'object',
  required: ['id', 'status'],
  properties: {id: {type: 'string'}, status: {type: 'string', enum: ['ok', 'not-modified', 'skipped']}, message: {type: 'string'}},
} as const;

export const feedStatusSchema = {
  type: 'object',
  required: ['name', 'origin', 'title', 'pollIntervalSeconds', 'itemCount', 'stale', 'lastSuccessAt', 'lastFailureAt', 'lastError', 'nextPollAt', 'feedUrl'],
  properties: {
    name: {type: 'string'},
    origin: {type: 'string'},
    title: nullableString,
    pollIntervalSeconds: {type: 'number'},
    itemCount: {type: 'integer'},
    stale: {type: 'boolean'},
    lastSuccessAt: nullableTime,
    lastFailureAt: nullableTime,
    lastError: nullableString,
    nextPollAt: nullableTime,
    feedUrl: {type: 'string'},
  },
} as const;

export const newChannelBody = {
  type: 'object',
  required: ['title'],
  additionalProperties: false,
  properties: {
    title: {type: 'string'},
    description: {type: 'string'},
    // Any whole number: out of range is clamped to 1..720 (spec), not refused.
    ttl_hours: {type: 'integer', description: `hours the channel lives: default 168, clamped to 1..${CHANNEL_TTL_MAX_HOURS}`},
  },
} as const;

export const createdChannelSchema = {
  type: 'object',
  required: ['id', 'write_token', 'feed_url', 'expires_at'],
  properties: {id: {type: 'string'}, write_token: {type: 'string'}, feed_url: {type: 'string'}, expires_at: time},
} as const;

export const newItemBody = {
  type: 'object',
  required: ['title'],
  additionalProperties: false,
  properties: {title: {type: 'string'}, link: {type: 'string'}, description: {type: 'string'}},
} as const;

export const okSchema = {type: 'object', required: ['ok'], properties: {ok: {type: 'boolean'}}} as const;

export const channelSummarySchema = {
  type: 'object',
  required: ['id', 'title', 'description', 'itemCount', 'createdAt', 'expiresAt', 'feedUrl'],
  properties: {
    id: {type: 'string'},
    title: {type: 'string'},
    description: nullableString,
    itemCount: {type: 'integer'},
    createdAt: time,
    expiresAt: time,
    feedUrl: {type: 'string'},
  },
} as const;
