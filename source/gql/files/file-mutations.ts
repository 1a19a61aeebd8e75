import type {GraphQLFieldConfigMap} from 'graphql';
import type {GqlRequestContext, GqlTable} from '../types.js';
import {StagedFile} from './staged-file.js';

/**
 * The file columns' part of a table's mutation fields: each Upload in the arguments becomes its
 * storage key (and fills `content-type-column` and `file-name-column` with the sniffed type and
 * the sanitised name) before the write runs; once the write has committed its files are
 * committed too (renamed into place), and when it fails they are discarded — a row never points
 * at a file that is not there, and no file is left that no row points at.
 */
export function withFileUploads(table: GqlTable, fields: GraphQLFieldConfigMap<unknown, GqlRequestContext>): GraphQLFieldConfigMap<unknown, GqlRequestContext> {
  if (!table.columns.some((column) => column.file)) return fields;
  const wrapped: GraphQLFieldConfigMap<unknown, GqlRequestContext> = {};
  for (const [name, field] of Object.entries(fields)) {
    const resolve = field.resolve!;
    wrapped[name] = {
      ...field,
      async resolve(source, args: Record<string, unknown>, ctx, info) {
        const files: StagedFile[] = [];
        const values = withStorageKeys(args, files) as Record<string, unknown>;
        // From here the outcome of this write decides, not the request's end (a client gone mid-write).
        for (const file of files) file.claim();
        let result: unknown;
        try {
          result = await resolve(source, values, ctx, info);
        } catch (error) {
          await Promise.all(files.map((file) => file.discard()));
          throw error;
        }
        await Promise.all(files.map((file) => file.commit()));
        return result;
      },
    };
  }
  return wrapped;
}

/** A copy of the arguments with every StagedFile replaced by its key, its row's companion columns filled. */
function withStorageKeys(value: unknown, files: StagedFile[]): unknown {
  if (Array.isArray(value)) return value.map((item) => withStorageKeys(item, files));
  if (typeof value !== 'object' || value === null || value instanceof StagedFile) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = withStorageKeys(item, files);
  for (const [key, item] of Object.entries(value)) {
    if (!(item instanceof StagedFile)) continue;
    files.push(item);
    copy[key] = item.key;
    const {contentTypeColumn, fileNameColumn} = item.column.file;
    const nameOf = (dbName: string) => item.table.columns.find((column) => column.dbName === dbName)!.name;
    if (contentTypeColumn) copy[nameOf(contentTypeColumn)] = item.contentType;
    if (fileNameColumn) copy[nameOf(fileNameColumn)] = item.fileName;
  }
  return copy;
}
