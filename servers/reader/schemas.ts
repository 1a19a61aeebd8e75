// JSON schemas of the reader API: request shapes checked by ajv, response shapes serialised by
// fast-json-stringify. Field names and types follow source/feeds/types.ts.

const nullableString = {type: ['string', 'null']} as const;
const time = {type: 'string', description: 'ISO 8601'} as const;
const nullableTime = {type: ['string', 'null'], description: 'ISO 8601 or null'} as const;
const id = {type: 'integer', minimum: 1, maximum: 2_147_483_647} as const;

export {errorSchema, errorResponses, noQuery} from '../kit/schemas.js';

export const idParams = {type: 'object', required: ['id'], additionalProperties: false, properties: {id}} as const;

export const feedSchema = {
  type: 'object',
  required: ['id', 'url', 'title', 'siteUrl', 'category', 'unreadCount', 'fetchStatus', 'lastError', 'lastFetchedAt', 'lastSuccessAt', 'nextFetchAt', 'createdAt'],
  properties: {
    id: {type: 'integer'},
    url: {type: 'string'},
    title: {type: 'string'},
    siteUrl: nullableString,
    category: nullableString,
    unreadCount: {type: 'integer'},
    fetchStatus: {type: 'string', enum: ['pending', 'ok', 'not_modified', 'error']},
    lastError: nullableString,
    lastFetchedAt: nullableTime,
    lastSuccessAt: nullableTime,
    nextFetchAt: nullableTime,
    createdAt: time,
  },
} as const;

export const discoveredFeedSchema = {
  type: 'object',
  required: ['url', 'title', 'format'],
  properties: {url: {type: 'string'}, title: nullableString, format: {type: ['string', 'null'], enum: ['rss', 'atom', 'rdf', 'json', null]}},
} as const;

export const feedChoicesSchema = {
  type: 'object',
  required: ['feeds'],
  properties: {feeds: {type: 'array', items: discoveredFeedSchema}},
} as const;

const articleProperties = {
  id: {type: 'integer'},
  feedId: {type: 'integer'},
  title: {type: 'string'},
  link: nullableString,
  author: nullableString,
  publishedAt: nullableTime,
  summary: nullableString,
  categories: {type: 'array', items: {type: 'string'}},
  read: {type: 'boolean'},
  snoozedUntil: nullableTime,
} as const;
const articleRequired = ['id', 'feedId', 'title', 'link', 'author', 'publishedAt', 'summary', 'categories', 'read', 'snoozedUntil'] as const;

export const articleSchema = {type: 'object', required: articleRequired, properties: articleProperties} as const;

// Lengths are bytes as a JSON number: a 2 GB file is past 2^31, and the store keeps up to 2^53.
export const enclosureSchema = {
  type: 'object',
  required: ['url'],
  properties: {
    url: {type: 'string'},
    type: {type: 'string', description: 'MIME type, when the feed gave a valid one'},
    length: {type: 'number', description: 'bytes, when the feed gave them'},
    durationSeconds: {type: 'integer'},
  },
} as const;

export const fullArticleSchema = {
  type: 'object',
  required: [...articleRequired, 'content', 'listIds', 'enclosures'],
  properties: {
    ...articleProperties,
    content: nullableString,
    listIds: {type: 'array', items: {type: 'integer'}},
    enclosures: {type: 'array', description: 'media files in feed order (podcast episodes)', items: enclosureSchema},
  },
} as const;

export const articlePageSchema = {
  type: 'object',
  required: ['articles', 'nextCursor'],
  properties: {
    articles: {type: 'array', items: articleSchema},
    nextCursor: {
      type: ['object', 'null'],
      description: 'pass back as ?before=…&before_id=…; null on the last page',
      properties: {before: time, before_id: {type: 'integer'}},
    },
  },
} as const;

export const articleQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    feed_id: id,
    list_id: id,
    category: {type: 'string', minLength: 1, maxLength: 200},
    unread: {type: 'boolean'},
    before: {type: 'string', maxLength: 64},
    before_id: id,
    limit: {type: 'integer', minimum: 1, maximum: 200, default: 50},
  },
} as const;

export const listSchema = {
  type: 'object',
  required: ['id', 'title', 'visibility', 'itemCount', 'createdAt'],
  properties: {
    id: {type: 'integer'},
    title: {type: 'string'},
    visibility: {type: 'string', enum: ['public', 'private']},
    token: {type: 'string'},
    rssUrl: {type: 'string'},
    itemCount: {type: 'integer'},
    createdAt: time,
  },
} as const;

export const categoryCountsSchema = {
  type: 'array',
  items: {type: 'object', required: ['name', 'count'], properties: {name: {type: 'string'}, count: {type: 'integer'}}},
} as const;

export const urlBody = {
  type: 'object',
  required: ['url'],
  additionalProperties: false,
  properties: {url: {type: 'string', minLength: 1, maxLength: 2048}},
} as const;
