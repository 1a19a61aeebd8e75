import {parse, specifiedRules, validate, type DocumentNode, type GraphQLError, type GraphQLSchema, type ValidationRule} from 'graphql';

// A client (GraphiQL, an app) sends the same few documents again and again: parsing and validating
// them once is most of a small query's CPU. Large or one-off documents are not kept.
const MAX_ENTRIES = 500;
const MAX_CACHED_QUERY_CHARS = 64 * 1024;
/** graphql-js stops parsing past this many tokens: a megabyte of `{a a a …}` costs no more than this. */
export const MAX_QUERY_TOKENS = 20_000;

export interface DocumentCache {
  /** graphql-js parse, remembered by query text (a syntax error is thrown as graphql-js throws it). */
  parse(query: string): DocumentNode;
  /** graphql-js validate, remembered per parsed document (the documents parse() handed out). */
  validate(schema: GraphQLSchema, document: DocumentNode, rules?: readonly ValidationRule[]): readonly GraphQLError[];
}

/** One cache per schema's service: the server and `gql query` both execute through it. */
export function createDocumentCache(): DocumentCache {
  const documents = new Map<string, DocumentNode>();
  // Keyed by the document object, so only documents this cache parsed (and still holds) hit.
  const validated = new WeakMap<DocumentNode, {schema: GraphQLSchema; rules: readonly ValidationRule[]; errors: readonly GraphQLError[]}>();
  return {
    parse(query) {
      const hit = documents.get(query);
      if (hit !== undefined) {
        // Most recently used last: the Map's order is the eviction order.
        documents.delete(query);
        documents.set(query, hit);
        return hit;
      }
      const document = parse(query, {maxTokens: MAX_QUERY_TOKENS});
      if (query.length <= MAX_CACHED_QUERY_CHARS) {
        documents.set(query, document);
        if (documents.size > MAX_ENTRIES) documents.delete(documents.keys().next().value!);
      }
      return document;
    },
    validate(schema, document, rules = specifiedRules) {
      const hit = validated.get(document);
      if (hit !== undefined && hit.schema === schema && hit.rules === rules) return hit.errors;
      const errors = validate(schema, document, rules);
      validated.set(document, {schema, rules, errors});
      return errors;
    },
  };
}
