import {GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema} from 'graphql';

/** A query text parsed and validated: the document, or why not. */
export type PreparedDocument = {document: DocumentNode; errors?: undefined} | {document?: undefined; errors: readonly GraphQLError[]};

/** What the server needs of the service's document cache (source/gql/service.ts keeps one per schema). */
export interface DocumentPreparer {
  prepare(text: string): PreparedDocument;
}

/** graphql-js stops parsing past this many tokens: a megabyte of `{a a a …}` costs no more than this. */
export const MAX_QUERY_TOKENS = 20_000;
const MAX_ENTRIES = 500;
const MAX_CACHED_QUERY_CHARS = 100_000;

/**
 * Parsed and validated documents by query text, least recently used dropped first, for a service
 * that brings none of its own: a client sends the same few documents again and again.
 */
export function createDocumentCache(schema: GraphQLSchema): DocumentPreparer {
  const entries = new Map<string, PreparedDocument>();
  const build = (text: string): PreparedDocument => {
    let document: DocumentNode;
    try {
      document = parse(text, {maxTokens: MAX_QUERY_TOKENS});
    } catch (error) {
      return {errors: [error instanceof GraphQLError ? error : new GraphQLError(String(error))]};
    }
    const errors = validate(schema, document);
    return errors.length > 0 ? {errors} : {document};
  };
  return {
    prepare(text) {
      const hit = entries.get(text);
      if (hit !== undefined) {
        entries.delete(text);
        entries.set(text, hit);
        return hit;
      }
      const prepared = build(text);
      if (text.length <= MAX_CACHED_QUERY_CHARS) {
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
        entries.set(text, prepared);
      }
      return prepared;
    },
  };
}
