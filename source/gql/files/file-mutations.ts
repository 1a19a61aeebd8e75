import type {GraphQLFieldConfigMap} from 'graphql';
import {keyOf} from '../mutate/columns.js';
import type {WriteOp} from '../mutate/prepare.js';
import {tableRef} from '../query/sql-parts.js';
import type {FileColumn, GqlColumn, GqlRequestContext, GqlTable, Row} from '../types.js';
import {StagedFile} from './staged-file.js';
import {openStorage} from './storage/open-storage.js';
import {isStorageKey} from './storage/storage.js';

/**
 * The file columns' part of a table's mutation fields: each Upload in the arguments becomes its
 * storage key (and fills `content-type-column` and `file-name-column` with the sniffed type and
 * the sanitised name) before the write runs; once the write has committed its files are
 * committed too (renamed into place), and when it fails they are discarded — a row never points
 * at a file that is not there, and no file is left that no row points at. A file a committed
 * update, upsert or delete left without a row (replaced, cleared, its row deleted — or uploaded by
 * an update that reached no row) is deleted from its storage once no row of the column holds its key.
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
        const actions = actionsOf(args);
        const before = await keysBefore(ctx, table, actions);
        let result: unknown;
        try {
          result = await resolve(source, values, ctx, info);
        } catch (error) {
          await Promise.all(files.map((file) => file.discard()));
          throw error;
        }
        await Promise.all(files.map((file) => file.commit()));
        // An update that reached no row (another tenant's, a key that is not there) committed its upload for nothing.
        const updated = actions.filter((action) => action.op === 'update').flatMap((action) => Object.values(action.values).filter((value) => value instanceof StagedFile));
        await deleteUnreferenced(ctx, table, [...before, ...updated.map((file) => ({column: file.column, key: file.key}))]);
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

type FileColumnOf = GqlColumn & {file: FileColumn};

// The writes that can leave a file without its row (an insert only adds one).
const REPLACING: WriteOp[] = ['update', 'upsert', 'delete'];

/** The single field's one action, or the batch's actions, that can leave a file behind, as `{op, values}`. */
function actionsOf(args: Record<string, unknown>): Array<{op: WriteOp; values: Row}> {
  const list = Array.isArray(args.actions) ? (args.actions as Array<Record<string, unknown>>) : [args];
  const actions: Array<{op: WriteOp; values: Row}> = [];
  for (const action of list) for (const op of REPLACING) if (action[op] && typeof action[op] === 'object') actions.push({op, values: action[op] as Row});
  return actions;
}

/**
 * The storage keys the rows these actions name hold now, in the file columns the actions replace
 * or clear (every file column for a delete): what the write may leave without a row. Read before
 * the write; a read that fails leaves the files alone (never the write's business).
 */
async function keysBefore(ctx: GqlRequestContext, table: GqlTable, actions: Array<{op: WriteOp; values: Row}>): Promise<Array<{column: FileColumnOf; key: string}>> {
  const found: Array<{column: FileColumnOf; key: string}> = [];
  const fileColumns = table.columns.filter((column): column is FileColumnOf => column.file !== undefined);
  for (const {op, values} of actions) {
    const columns = op === 'delete' ? fileColumns : fileColumns.filter((column) => values[column.name] !== undefined);
    const key = keyOf(table, values);
    if (columns.length === 0 || !key) continue;
    try {
      const where = Object.fromEntries(Object.entries(key).map(([name, value]) => [`t.${name}`, value]));
      const row = (await ctx
        .db(tableRef(ctx.model, table, 't'))
        .where(where)
        .first(columns.map((column) => `t.${column.dbName}`))) as Row | undefined;
      for (const column of columns) {
        const held = row?.[column.dbName];
        if (typeof held === 'string' && isStorageKey(held)) found.push({column, key: held});
      }
    } catch {
      // Not knowing the old key only means its file stays.
    }
  }
  return found;
}

/** Deletes each file whose key no row of its column holds any more (a soft-deleted row still does). */
async function deleteUnreferenced(ctx: GqlRequestContext, table: GqlTable, candidates: Array<{column: FileColumnOf; key: string}>): Promise<void> {
  for (const {column, key} of candidates) {
    try {
      const still = await ctx
        .db(tableRef(ctx.model, table, 't'))
        .where(`t.${column.dbName}`, key)
        .first(ctx.db.raw('1 as held'));
      if (!still) await openStorage(column.file.storage).delete(key);
    } catch {
      // A file that could not be deleted is left over, never a failed write: the row has committed.
    }
  }
}
