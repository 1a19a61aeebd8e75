import {GraphQLError, parse, validate} from 'graphql';
import type {DocumentNode, GraphQLSchema} from 'graphql';
import {emptySchemaHint} from '../schema/empty-schema.js';
import type {GqlModel} from '../types.js';
import {costRefusal} from './cost.js';

export type PreparedDocument = {document: DocumentNode; errors?: undefined} | {document?: undefined; errors: readonly GraphQLError[]};

/**
 * Parsed and validated documents by query text, least recently used dropped first: a client
 * sends the same few queries again and again, and parsing plus validating costs more than
 * answering a small one. Failures are kept too (a bad query sent in a loop costs nothing twice).
 * The documents also key the compiled-SQL cache of the read path, so that lives as long as they do.
 */
export class DocumentCache {
  private readonly entries = new Map<string, PreparedDocument>();
  /** Cost verdicts of documents admitted without variables, by operation name (null: admitted); they go with their document. */
  private readonly verdicts = new WeakMap<DocumentNode, Map<string, GraphQLError | null>>();
  /** An empty schema's hint (how to get tables), carried by its validation errors as `extensions.hint`. */
  private readonly hint: string | undefined;

  constructor(
    private readonly schema: GraphQLSchema,
    /** The model whose limits bound a document's cost (admit); none: no bound (a schema alone). */
    private readonly model?: GqlModel,
    private readonly capacity = 500,
    // Longer texts are prepared every time and never kept (a cache full of them would hold megabytes).
    private readonly maxTextLength = 100_000,
  ) {
    this.hint = emptySchemaHint(schema);
  }

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

  /**
   * A document to run with these variables: prepared, then weighed against `max-query-cost` and
   * `max-query-depth` (cost.ts) before any SQL runs. The verdict is kept with the document when no
   * variables are given (it then depends on the document and operation alone: 2 % of a small
   * query's CPU, weighed every time); variables can move the limits, so with them it is weighed anew.
   */
  admit(text: string, operationName?: string | null, variables?: Record<string, unknown> | null): PreparedDocument {
    const prepared = this.prepare(text);
    if (prepared.errors || !this.model) return prepared;
    const fixed = variables === undefined || variables === null || Object.keys(variables).length === 0;
    const verdicts = fixed ? this.verdicts.get(prepared.document) : undefined;
    const key = operationName === null || operationName === undefined ? '\0' : operationName;
    let refused = verdicts?.get(key);
    if (refused === undefined) {
      refused = costRefusal(this.schema, this.model, prepared.document, operationName, variables) ?? null;
      if (fixed) this.verdicts.set(prepared.document, (verdicts ?? new Map()).set(key, refused));
    }
    return refused ? {errors: [refused]} : prepared;
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
    if (errors.length === 0) return {document};
    const hint = this.hint;
    // A query against an empty database fails validation: its errors say how to get tables, over HTTP as in-process.
    if (hint === undefined) return {errors};
    return {
      errors: errors.map(
        (error) => new GraphQLError(error.message, {nodes: error.nodes, source: error.source, positions: error.positions, extensions: {...error.extensions, hint}}),
      ),
    };
  }
}
