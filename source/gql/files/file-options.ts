import {PropertyReader} from '../model/property-reader.js';
import {ROOT_SELECTOR} from '../metadata/keys.js';
import type {FileColumn, FileStorageConfig, GqlColumn, GqlTable, ModelProblem, ResolvedMetadata} from '../types.js';
import {parseAccept, parseByteSize, parseStorageConfig} from './storage-config.js';

/** The file keys (spec 3, "EAV and files"), kept here rather than in metadata/keys.ts: this folder owns them. */
export const FILE_KEY = {
  file: 'file',
  fileStorage: 'file-storage',
  storage: 'storage',
  maxSize: 'max-size',
  contentTypeColumn: 'content-type-column',
  fileNameColumn: 'file-name-column',
  accept: 'accept',
} as const;

/** Keys that only mean something on a file column. */
const COLUMN_ONLY = [FILE_KEY.file, FILE_KEY.fileStorage, FILE_KEY.maxSize, FILE_KEY.contentTypeColumn, FILE_KEY.fileNameColumn, FILE_KEY.accept];

export const DEFAULT_MAX_SIZE = 100 * 1024 * 1024;

const MARKER_ON = new Set(['true', 'enabled', 'yes', 'on']);

/**
 * Reads the file keys of every table's columns and sets `column.file` on the file columns. A
 * column is a file column when it carries `file` (or the legacy `file-storage`): `true` takes the
 * nearest `storage` (column, table, model; default `disk`), a storage config string names one
 * directly. Every failure is a problem naming its rule: a non-string column, a storage that is
 * not one, a size that is not a positive number of bytes, an accept that is not MIME patterns, a
 * content-type/file-name column that is not a writable string column of the same table, and any
 * of these keys where no file column is.
 */
export function applyFileColumns(tables: GqlTable[], resolved: ResolvedMetadata, problems: ModelProblem[]): void {
  const root = new PropertyReader(ROOT_SELECTOR, resolved.model, resolved, problems);
  misplaced(root, 'the model (:root)');
  const modelStorage = storageOf(root);
  for (const table of tables) {
    const tableRead = new PropertyReader(table.key, resolved.tables.get(table.key) ?? {}, resolved, problems);
    misplaced(tableRead, 'a table');
    const tableStorage = storageOf(tableRead) ?? modelStorage;
    for (const column of table.columns) {
      const read = new PropertyReader(`${table.key}.${column.dbName}`, resolved.columns.get(`${table.key}.${column.dbName}`) ?? {}, resolved, problems);
      const file = fileColumn(read, table, column, tableStorage);
      if (file) column.file = file;
    }
  }
}

function misplaced(read: PropertyReader, where: string): void {
  for (const key of COLUMN_ONLY) if (read.has(key)) read.problem(key, `applies to a column, not to ${where}`);
}

function storageOf(read: PropertyReader): FileStorageConfig | undefined {
  if (!read.has(FILE_KEY.storage)) return undefined;
  const parsed = parseStorageConfig(read.props[FILE_KEY.storage]!);
  if (typeof parsed === 'string') {
    read.problem(FILE_KEY.storage, parsed);
    return undefined;
  }
  return parsed;
}

function fileColumn(read: PropertyReader, table: GqlTable, column: GqlColumn, inherited: FileStorageConfig | undefined): FileColumn | undefined {
  const markerKey = read.has(FILE_KEY.file) ? FILE_KEY.file : read.has(FILE_KEY.fileStorage) ? FILE_KEY.fileStorage : undefined;
  if (markerKey === undefined) {
    for (const key of [FILE_KEY.storage, ...COLUMN_ONLY]) if (read.has(key)) read.problem(key, `needs ${FILE_KEY.file} on the same column (it marks the file column)`);
    return undefined;
  }
  if (read.has(FILE_KEY.file) && read.has(FILE_KEY.fileStorage)) read.problem(FILE_KEY.fileStorage, `is the legacy spelling of ${FILE_KEY.file}: write one of them`);
  if (column.kind !== 'string')
    read.problem(markerKey, `${column.dbName} is a ${column.dataType} column: a file column holds the storage key, so it must be a string (text/varchar) column`);
  if (column.isPrimaryKey) read.problem(markerKey, 'a primary-key column cannot be a file column');

  let storage = storageOf(read) ?? inherited;
  const marker = read.text(markerKey) ?? '';
  if (!MARKER_ON.has(marker.toLowerCase())) {
    const direct = parseStorageConfig(marker);
    if (typeof direct === 'string') read.problem(markerKey, `must be true or a storage (${direct})`);
    else if (read.has(FILE_KEY.storage)) read.problem(markerKey, `names a storage and so does ${FILE_KEY.storage} on the same column: keep one`);
    else storage = direct;
  }

  let maxSize = DEFAULT_MAX_SIZE;
  if (read.has(FILE_KEY.maxSize)) {
    const size = parseByteSize(read.props[FILE_KEY.maxSize]!);
    if (typeof size === 'string') read.problem(FILE_KEY.maxSize, size);
    else maxSize = size;
  }
  let accept: string[] | undefined;
  if (read.has(FILE_KEY.accept)) {
    const parsed = parseAccept(read.list(FILE_KEY.accept) ?? []);
    if (typeof parsed === 'string') read.problem(FILE_KEY.accept, parsed);
    else accept = parsed;
  }
  const contentTypeColumn = companion(read, FILE_KEY.contentTypeColumn, table, column);
  const fileNameColumn = companion(read, FILE_KEY.fileNameColumn, table, column);
  return {
    storage: storage ?? {kind: 'disk'},
    maxSize,
    ...(accept ? {accept} : {}),
    ...(contentTypeColumn ? {contentTypeColumn} : {}),
    ...(fileNameColumn ? {fileNameColumn} : {}),
  };
}

/** `content-type-column` / `file-name-column`: a string column of the same table an upload may write. */
function companion(read: PropertyReader, key: string, table: GqlTable, file: GqlColumn): string | undefined {
  if (!read.has(key)) return undefined;
  const name = read.text(key);
  if (!name) {
    read.problem(key, 'is empty: name a string column of the same table');
    return undefined;
  }
  const found = table.columns.find((column) => column.dbName.toLowerCase() === name.toLowerCase());
  if (!found) read.problem(key, `${table.key} has no column ${name}`);
  else if (found === file) read.problem(key, 'names the file column itself');
  else if (found.kind !== 'string') read.problem(key, `${found.dbName} is a ${found.dataType} column, not a string column`);
  else if (found.hidden || found.populate !== undefined)
    read.problem(key, `${found.dbName} is ${found.hidden ? 'hidden' : `filled by populate: ${found.populate}`}, so an upload cannot write it`);
  else return found.dbName;
  return undefined;
}
