import {KEY} from '../metadata/keys.js';
import type {DbTable, GqlColumn, GqlTable, PopulateKind} from '../types.js';
import type {PropertyReader} from './property-reader.js';

const POPULATE: readonly PopulateKind[] = ['created-by', 'updated-by', 'created-on', 'updated-on', 'deleted-on', 'deleted-by'];

/** The column of `table` named `name` (case-insensitive: rules are often written in another case). */
export function columnNamed(table: DbTable, name: string): string | undefined {
  return table.columns.find((column) => column.name.toLowerCase() === name.toLowerCase())?.name;
}

/** Visibility, `update: none` and `populate` of one column. */
export function columnOptions(read: PropertyReader): Pick<GqlColumn, 'hidden' | 'readOnly' | 'populate'> {
  const visibility = read.oneOf(KEY.visibility, ['hidden', 'visible'] as const);
  const update = read.oneOf(KEY.update, ['none'] as const);
  const populate = read.oneOf(KEY.populate, POPULATE);
  return {hidden: visibility === 'hidden', readOnly: update === 'none', ...(populate ? {populate} : {})};
}

type TableOptions = Pick<
  GqlTable,
  | 'hidden'
  | 'label'
  | 'defaultLimit'
  | 'tenantColumn'
  | 'autoFilters'
  | 'softDelete'
  | 'deleteType'
  | 'batchMaxSize'
  | 'bulkBatchThreshold'
  | 'batchDuplicatePolicy'
  | 'filteredUpdate'
  | 'filteredUpdateMaxAffected'
>;

/**
 * A table's data-behaviour properties (spec 3, "Metadata properties: data behaviour") with the
 * spec's defaults; a column a property names must exist. `columns` is the table's built columns
 * (for the populate deleted-on/deleted-by fallback of `delete-type: soft`).
 */
export function tableOptions(table: DbTable, read: PropertyReader, columns: GqlColumn[]): TableOptions {
  const column = (key: string): string | undefined => {
    const name = read.text(key);
    if (name === undefined) return undefined;
    const found = columnNamed(table, name);
    if (!found) read.problem(key, `the table has no column ${name}`);
    return found;
  };

  const autoFilters: TableOptions['autoFilters'] = [];
  for (const item of read.list(KEY.autoFilter) ?? []) {
    const colon = item.indexOf(':');
    const name = colon === -1 ? '' : item.slice(0, colon).trim();
    const claim = colon === -1 ? '' : item.slice(colon + 1).trim();
    if (!name || !claim) {
      read.problem(KEY.autoFilter, `"${item}" must read <column>:<claim>`);
      continue;
    }
    const found = columnNamed(table, name);
    if (!found) read.problem(KEY.autoFilter, `the table has no column ${name}`);
    else autoFilters.push({column: found, claim});
  }

  const softColumn = column(KEY.softDelete);
  const softBy = column(KEY.softDeleteBy);
  const deleteTypeValue = read.oneOf(KEY.deleteType, ['soft', 'hard'] as const);
  if (softBy && !softColumn && !read.has(KEY.softDelete)) read.problem(KEY.softDeleteBy, `needs ${KEY.softDelete} (the timestamp column) on the same table`);
  // `delete-type: soft` without a soft-delete column falls back to the column populated `deleted-on`.
  const populatedOn = columns.find((item) => item.populate === 'deleted-on')?.dbName;
  const populatedBy = columns.find((item) => item.populate === 'deleted-by')?.dbName;
  const softDeleteColumn = softColumn ?? (deleteTypeValue === 'soft' ? populatedOn : undefined);
  if (deleteTypeValue === 'soft' && !softDeleteColumn && !read.has(KEY.softDelete)) {
    read.problem(KEY.deleteType, `needs a soft-delete column: set ${KEY.softDelete} on the table or populate: deleted-on on a column`);
  }
  const softDelete = softDeleteColumn ? {column: softDeleteColumn, ...((softBy ?? populatedBy) ? {byColumn: softBy ?? populatedBy} : {})} : undefined;
  // A soft-delete column turns deletes into updates unless the rules say `delete-type: hard`.
  const deleteType = softDelete && deleteTypeValue !== 'hard' ? 'soft' : 'hard';

  const label = column(KEY.label);
  const tenantColumn = column(KEY.tenantFilter);
  const filteredUpdate = read.oneOf(KEY.filteredUpdate, ['enabled', 'disabled'] as const) === 'enabled';
  return {
    hidden: read.oneOf(KEY.visibility, ['hidden', 'visible'] as const) === 'hidden',
    ...(label ? {label} : {}),
    ...optional('defaultLimit', read.integer(KEY.defaultLimit, {positive: true})),
    ...(tenantColumn ? {tenantColumn} : {}),
    autoFilters,
    ...(softDelete ? {softDelete} : {}),
    deleteType,
    ...optional('batchMaxSize', read.integer(KEY.batchMaxSize, {positive: true})),
    // 0 or negative disables the set-based path (spec): any whole number is fine.
    bulkBatchThreshold: read.integer(KEY.bulkBatchThreshold, {positive: false}) ?? 50,
    batchDuplicatePolicy: read.oneOf(KEY.batchDuplicatePolicy, ['last-wins', 'reject'] as const) ?? 'last-wins',
    filteredUpdate,
    filteredUpdateMaxAffected: read.integer(KEY.filteredUpdateMaxAffected, {positive: true}) ?? 100,
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({[key]: value} as Record<K, V>);
}
