import {fileTypeFromBuffer} from 'file-type';
import type {Readable} from 'node:stream';
import {execute, GraphQLError, type DocumentNode, type GraphQLSchema} from 'graphql';
import {environmentFault, isWorkbenchError, WorkbenchError} from '../../core/errors.js';
import type {DocumentPreparer} from '../request/document-preparer.js';
import type {FileColumn, GqlColumn, GqlModel, GqlRequestContext, GqlTable, UserContext} from '../types.js';
import {attachmentDisposition} from './file-name.js';
import {openStorage} from './storage/open-storage.js';
import {STORAGE_KEY, type ByteRange} from './storage/storage.js';

export interface FileServing {
  model: GqlModel;
  schema: GraphQLSchema;
  documents: DocumentPreparer;
  context(user: UserContext): GqlRequestContext;
}

export interface FileRequest {
  /** The table's and the column's GraphQL names, and the primary key's values in declared order. */
  table: string;
  column: string;
  key: string[];
  range?: string;
  ifNoneMatch?: string;
  ifRange?: string;
}

export interface FileAnswer {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string>;
  body?: Readable;
}

const notFound = () => new WorkbenchError('not_found', 'no such file (or not yours to read)');

/**
 * GET <Path>/files/<table>/<column>/<key…>: the file a row's file column points at, found by a
 * read of that row as the user — the tenant filter, auto-filters, soft delete and hidden columns
 * apply as to any query, and a row the user cannot read is a 404 like one that does not exist.
 * Single byte ranges (206, 416), ETag (the key: a key's bytes never change) and If-None-Match.
 */
export async function answerFileRequest(serving: FileServing, user: UserContext, request: FileRequest): Promise<FileAnswer> {
  const table = serving.model.byName.get(request.table);
  const column = table?.columns.find((item) => item.name === request.column && item.file && !item.hidden);
  if (!table || !column?.file || request.key.length !== table.primaryKey.length) throw notFound();
  const file = column.file;
  const row = await readRow(serving, user, table, column as GqlColumn & {file: FileColumn}, request.key);
  const key = row?.[column.name];
  if (typeof key !== 'string' || !STORAGE_KEY.test(key)) throw notFound();
  const storage = openStorage(file.storage);
  const stored = await storage.stat(key);
  if (!stored) throw notFound();

  const etag = `"${key}"`;
  const common: Record<string, string> = {
    etag,
    'accept-ranges': 'bytes',
    'cache-control': 'private, no-cache',
    'x-content-type-options': 'nosniff',
  };
  if (request.ifNoneMatch && request.ifNoneMatch.split(',').some((tag) => [etag, `W/${etag}`, '*'].includes(tag.trim()))) return {status: 304, headers: common};

  const typeColumn = file.contentTypeColumn && table.columns.find((item) => item.dbName === file.contentTypeColumn)!.name;
  const recorded = typeColumn ? row?.[typeColumn] : undefined;
  const contentType =
    typeof recorded === 'string' && /^[\w.+-]+\/[\w.+-]+$/.test(recorded) ? recorded : (stored.contentType ?? (await sniffStored(storage.read.bind(storage), key, stored.size)));
  const nameColumn = file.fileNameColumn && table.columns.find((item) => item.dbName === file.fileNameColumn)!.name;
  const name = nameColumn && typeof row?.[nameColumn] === 'string' ? (row[nameColumn] as string) : key;
  const headers = {...common, 'content-type': contentType, 'content-disposition': attachmentDisposition(name)};

  const useRange = request.range !== undefined && (request.ifRange === undefined || request.ifRange.trim() === etag);
  const range = useRange ? parseRange(request.range!, stored.size) : undefined;
  if (range === 'unsatisfiable') return {status: 416, headers: {...common, 'content-range': `bytes */${stored.size}`}};
  if (range) {
    return {
      status: 206,
      headers: {...headers, 'content-range': `bytes ${range.start}-${range.end}/${stored.size}`, 'content-length': String(range.end - range.start + 1)},
      body: await storage.read(key, range),
    };
  }
  return {status: 200, headers: {...headers, 'content-length': String(stored.size)}, body: stored.size === 0 ? undefined : await storage.read(key)};
}

/**
 * One `bytes=` range (RFC 9110 §14.1.2): `a-b`, `a-`, `-n`. Several ranges, or a header that is
 * not a bytes range, are ignored (the whole file answers, as the RFC allows).
 */
export function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return {start: Math.max(0, size - suffix), end: size - 1};
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return {start, end};
}

async function sniffStored(read: (key: string, range: ByteRange) => Promise<Readable>, key: string, size: number): Promise<string> {
  if (size === 0) return 'text/plain';
  const chunks: Buffer[] = [];
  for await (const chunk of await read(key, {start: 0, end: Math.min(size, 4100) - 1})) chunks.push(chunk as Buffer);
  const head = Buffer.concat(chunks);
  const found = await fileTypeFromBuffer(head);
  if (found) return found.mime;
  if (head.includes(0)) return 'application/octet-stream';
  try {
    // stream: a character cut at the sample's end is not a fault.
    new TextDecoder('utf-8', {fatal: true}).decode(head, {stream: size > head.length});
    return 'text/plain';
  } catch {
    return 'application/octet-stream';
  }
}

/** The row through the read path, as the user: `{<file column> <type column> <name column>}` or undefined. */
async function readRow(
  serving: FileServing,
  user: UserContext,
  table: GqlTable,
  column: GqlColumn & {file: FileColumn},
  key: string[],
): Promise<Record<string, unknown> | undefined> {
  const filter: Record<string, unknown> = {};
  for (const [index, name] of table.primaryKey.entries()) {
    const keyColumn = table.columns.find((item) => item.dbName === name)!;
    const text = key[index]!;
    if (keyColumn.kind === 'int' || keyColumn.kind === 'float') {
      if (!/^-?\d+(\.\d+)?$/.test(text)) return undefined;
      filter[keyColumn.name] = {_eq: Number(text)};
    } else filter[keyColumn.name] = {_eq: text};
  }
  const companions = [column.file.contentTypeColumn, column.file.fileNameColumn].filter((item): item is string => item !== undefined);
  const fields = [column.name, ...companions.map((dbName) => table.columns.find((item) => item.dbName === dbName)!.name)];
  const select = `${table.name}(filter: $filter, limit: 1) { data { ${fields.join(' ')} } }`;
  const text = `query File($filter: TableFilter${table.name}Input) { ${table.schemaField ? `${table.schemaField} { ${select} }` : select} }`;
  const prepared = serving.documents.prepare(text);
  if (prepared.errors) return undefined;
  const result = await execute({schema: serving.schema, document: prepared.document as DocumentNode, variableValues: {filter}, contextValue: serving.context(user)});
  for (const error of result.errors ?? []) {
    const original = error instanceof GraphQLError ? error.originalError : error;
    // The user's reach ends in a 404; the database's trouble is the server's.
    if (original && !isWorkbenchError(original) && environmentFault(original)) throw original;
  }
  const root = table.schemaField ? (result.data?.[table.schemaField] as Record<string, unknown> | null | undefined) : result.data;
  const page = root?.[table.name] as {data?: Array<Record<string, unknown>>} | null | undefined;
  return page?.data?.[0];
}
