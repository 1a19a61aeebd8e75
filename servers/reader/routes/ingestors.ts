import type {FastifyInstance} from 'fastify';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import type {IngestorInput, IngestorPatch, IngestorTestRequest} from '../../../source/feeds/ingestors/types.js';
import {errorResponses, idParams, noQuery} from '../schemas.js';

// Types are checked here (ajv); ranges, kinds and each network's config by the service, whose
// messages name the field and the allowed values.
const fields = {
  fetchIntervalMin: {type: 'integer'},
  digestMode: {type: 'string', maxLength: 20},
  filterThreshold: {type: 'number'},
  llmEnabled: {type: 'boolean'},
} as const;
const config = {type: 'object', additionalProperties: true, maxProperties: 50} as const;
const createBody = {
  type: 'object',
  required: ['kind', 'config'],
  additionalProperties: false,
  properties: {kind: {type: 'string', maxLength: 20}, config, ...fields},
} as const;
const patchBody = {type: 'object', additionalProperties: false, minProperties: 1, properties: {config, ...fields}} as const;
const testBody = {
  type: 'object',
  additionalProperties: false,
  properties: {id: idParams.properties.id, kind: {type: 'string', maxLength: 20}, config, ...fields},
} as const;

const nullableString = {type: ['string', 'null']} as const;
const rateLimit = {
  type: ['object', 'null'],
  properties: {limit: {type: ['number', 'null']}, remaining: {type: ['number', 'null']}, resetAt: nullableString, retryAfterSeconds: {type: ['number', 'null']}},
} as const;
export const ingestorSchema = {
  type: 'object',
  required: [
    'id',
    'kind',
    'network',
    'config',
    'fetchIntervalMin',
    'digestMode',
    'filterThreshold',
    'llmEnabled',
    'status',
    'statusMessage',
    'pendingDigestCount',
    'feedId',
    'title',
  ],
  properties: {
    id: {type: 'integer'},
    kind: {type: 'string'},
    network: {type: 'string'},
    config: {type: 'object', additionalProperties: true},
    fetchIntervalMin: {type: 'integer'},
    digestMode: {type: 'string'},
    filterThreshold: {type: 'number'},
    llmEnabled: {type: 'boolean'},
    status: {type: 'string'},
    statusMessage: nullableString,
    pendingDigestCount: {type: 'integer'},
    feedId: {type: 'integer'},
    title: {type: 'string'},
    lastFetchedAt: nullableString,
    nextFetchAt: nullableString,
    nextDigestAt: nullableString,
    createdAt: {type: 'string'},
  },
} as const;
const testedStatus = {
  type: 'object',
  properties: {
    key: {type: 'string'},
    url: {type: 'string'},
    author: {type: 'string'},
    text: {type: 'string'},
    createdAt: {type: 'string'},
    score: {type: 'number'},
    reasons: {type: 'array', items: {type: 'object', properties: {signal: {type: 'string'}, effect: {type: 'number'}, detail: {type: 'string'}}}},
  },
} as const;
const testSchema = {
  type: 'object',
  properties: {
    fetched: {type: 'integer'},
    kept: {type: 'array', items: testedStatus},
    dropped: {type: 'array', items: testedStatus},
    llm: {type: 'object', properties: {state: {type: 'string'}, calls: {type: 'integer'}, cached: {type: 'integer'}, problem: nullableString}},
    rateLimit,
  },
} as const;

/** Ingestors (spec 2, part A): list, create, change, remove, and one test cycle that stores nothing. */
export async function ingestorRoutes(app: FastifyInstance, {service}: {service: ReaderService}): Promise<void> {
  app.get('/ingestors', {schema: {querystring: noQuery, response: {200: {type: 'array', items: ingestorSchema}, ...errorResponses}}}, () => service.listIngestors());

  app.post<{Body: IngestorInput}>('/ingestors', {schema: {querystring: noQuery, body: createBody, response: {201: ingestorSchema, ...errorResponses}}}, async (request, reply) =>
    reply.status(201).send(await service.createIngestor(request.body)),
  );

  // A test cycle asks the network (and maybe a model): the body is a definition, or {id} of a stored one.
  app.post<{Body: IngestorTestRequest}>('/ingestors/test', {schema: {querystring: noQuery, body: testBody, response: {200: testSchema, ...errorResponses}}}, (request) =>
    service.testIngestor(request.body),
  );

  app.get<{Params: {id: number}}>('/ingestors/:id', {schema: {querystring: noQuery, params: idParams, response: {200: ingestorSchema, ...errorResponses}}}, (request) =>
    service.getIngestor(request.params.id),
  );

  app.patch<{Params: {id: number}; Body: IngestorPatch}>(
    '/ingestors/:id',
    {schema: {querystring: noQuery, params: idParams, body: patchBody, response: {200: ingestorSchema, ...errorResponses}}},
    (request) => service.updateIngestor(request.params.id, request.body),
  );

  app.delete<{Params: {id: number}}>(
    '/ingestors/:id',
    {schema: {querystring: noQuery, params: idParams, response: {204: {type: 'null'}, ...errorResponses}}},
    async (request, reply) => {
      await service.deleteIngestor(request.params.id);
      return reply.status(204).send();
    },
  );
}
