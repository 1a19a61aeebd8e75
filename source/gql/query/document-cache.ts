import {GraphQLError, parse, validate} from 'graphql';
import type {DocumentNode, GraphQLSchema} from 'graphql';

export type PreparedDocument = {document: DocumentNode; errors?: undefined} | {document?: undefined; errors: readonly GraphQLError[]};

/**
 * Parsed and validated documents by query text, least recently used dropped first: a client
 * sends the same few queries again and again, and parsing plus validating costs more than
 * answering a small one. Failures are kept too (a bad query sent in a loop costs nothing twice).
 * The documents also key the compiled-SQL cache of the read path, so that lives as long as they do.
 */
export class DocumentCache {
  private readonly entries = new Map<string, PreparedDocument>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly capacity = 500,
    // Longer texts are prepared every time and never kept (a cache full of them would hold megabytes).
    private readonly maxTextLength = 100_000,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  prepare(text: string): PreparedDocument {
    const hit = this.entries.get(text);
    if (hit) {
      this.entries.delete(text);
      this.entries.set(text, hit);
      return hit;
    }
    const prepared = this.build(text);
    if (text.length <= this.maxTextLength) {
      if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(text, prepared);
    }
    return prepared;
  }

  private build(text: string): PreparedDocument {
    let document: DocumentNode;
    try {
      // Token limit: a hostile document of millions of tokens is refused before it is parsed whole.
      document = parse(text, {maxTokens: 20_000});
    } catch (error) {
      return {errors: [error instanceof GraphQLError ? error : new GraphQLError(String(error))]};
    }
    const errors = validate(this.schema, document);
    return errors.length > 0 ? {errors} : {document};
  }
}
