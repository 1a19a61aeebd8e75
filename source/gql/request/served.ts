import type {GraphQLSchema} from 'graphql';
import {DocumentCache} from '../query/document-cache.js';
import type {GqlService} from '../types.js';
import type {DocumentPreparer} from './document-preparer.js';
import type {ServedGraphql} from './http-handler.js';

/** An opened GqlService as the HTTP handler takes it: its schema, its document cache (one is made when it has none), its resolver context. */
export function servedGraphqlOf(service: GqlService): ServedGraphql {
  return {
    settings: service.settings,
    model: service.model,
    schema: service.schema as GraphQLSchema,
    db: service.db,
    documents: (service.documents as DocumentPreparer | undefined) ?? new DocumentCache(service.schema as GraphQLSchema, service.model),
    ...(service.context ? {context: (user) => service.context!(user)} : {}),
  };
}
