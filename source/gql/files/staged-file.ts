import {GraphQLError, GraphQLScalarType} from 'graphql';
import type {FileColumn, GqlColumn, GqlTable} from '../types.js';
import type {FileStorage, PendingFile} from './storage/storage.js';

/**
 * One uploaded file, its bytes already in its storage under a temporary name, waiting for the
 * row that will point at it: `commit` once that row has committed, `discard` otherwise (the
 * request's end discards whatever no mutation committed). Only the multipart request makes these.
 */
export class StagedFile {
  private settled = false;
  /** A mutation is writing the row that will point at it: only that mutation settles it now. */
  private claimed = false;

  constructor(
    readonly table: GqlTable,
    readonly column: GqlColumn & {file: FileColumn},
    readonly storage: FileStorage,
    /** The storage key the column will hold. */
    readonly key: string,
    readonly contentType: string,
    /** The client's name for it, sanitised for display (file-name.ts). */
    readonly fileName: string,
    readonly size: number,
    private readonly pending: PendingFile,
  ) {}

  async commit(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    await this.pending.commit();
  }

  claim(): void {
    this.claimed = true;
  }

  /** The request is over (answered, or its client gone): discarded unless a mutation has it. */
  async abandon(): Promise<void> {
    if (!this.claimed) await this.discard();
  }

  async discard(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    await this.pending.discard();
  }
}

/**
 * The GraphQL multipart request spec's `Upload`: a file column's input in insert, update and
 * upsert. Its value is a file part of the same request (the `map` puts it in the variables);
 * nothing a JSON body or a literal can write is one.
 */
export const GraphQLUpload = new GraphQLScalarType({
  name: 'Upload',
  description: "A file sent as a part of a multipart request (GraphQL multipart request spec): only in a variable the request's `map` fills.",
  parseValue(value) {
    if (value instanceof StagedFile) return value;
    throw new GraphQLError('Upload takes a file part of a multipart/form-data request (GraphQL multipart request spec), named in its map');
  },
  parseLiteral() {
    throw new GraphQLError('Upload cannot be written in the query: send the file as a part of a multipart/form-data request and map it to a variable');
  },
  serialize() {
    throw new GraphQLError('Upload is an input only');
  },
});
