import {dialectOf} from '../dialect/dialect-of.js';
import {PropertyReader} from '../model/property-reader.js';
import type {ColumnKind, DbModel, DbTable, GqlColumn, GqlTable, ModelProblem, ResolvedMetadata, TableEav} from '../types.js';
import {EAV_FIELDS} from './fields.js';

/** The spec's `eav-*` keys (spec 3, "Metadata properties: EAV and files"); any other key of that family fails at load. */
export const EAV_KEY = {parent: 'eav-parent', fk: 'eav-fk', key: 'eav-key', value: 'eav-value'} as const;
const EAV_KEYS: readonly string[] = Object.values(EAV_KEY);

/**
 * The value column kinds an attribute can have, and why others are refused: a value is written
 * and filtered as its scalar (String, Int, Float; BigInt and Decimal as exact text), which the
 * `_meta` JSON map carries unchanged. Booleans, dates, JSON and bytes would read back in each
 * database's own spelling (1/0, timestamps, escaped text), so they are refused at load rather
 * than served inconsistently.
 */
export const EAV_VALUE_KINDS: readonly ColumnKind[] = ['string', 'uuid', 'int', 'bigint', 'float', 'decimal'];

const tableKey = (table: DbTable) => `${table.schema}.${table.name}`;

/** `schema.table`, or a table of the meta table's own schema (upstream resolves the parent there only), case-insensitive. */
function findParent(db: DbModel, meta: DbTable, name: string): DbTable | undefined {
  const lower = name.trim().toLowerCase();
  return db.tables.find((table) => tableKey(table).toLowerCase() === lower) ?? db.tables.find((table) => table.schema === meta.schema && table.name.toLowerCase() === lower);
}

/** Reports `eav-*` keys written on the model or a column: they apply to the meta table only. */
function misplaced(resolved: ResolvedMetadata, problems: ModelProblem[]): void {
  const targets: Array<[string, Record<string, string>]> = [[':root', resolved.model], ...resolved.columns];
  for (const [target, props] of targets) {
    const read = new PropertyReader(target, props, resolved, problems);
    for (const key of Object.keys(props)) if (key.startsWith('eav-')) read.problem(key, 'applies to a table (the EAV meta table), not to a model or a column');
  }
}

/**
 * Reads the `eav-*` keys of every meta table and marks its parent: `parent.eav` says where the
 * attributes are, and the meta table is hidden — its rows carry no tenant or soft-delete of their
 * own, so served as a table of its own they would bypass the parent's row policy; they are read
 * and written only through the parent. Every failure is a ModelProblem naming the rule: a partial
 * set of keys, an unknown `eav-*` key, a parent or a column that does not exist, a key column that
 * is not text, a value column of a kind attributes cannot carry, a parent without a one-column
 * primary key, a parent with two meta tables, a parent whose columns take the EAV field names.
 * Runs before links are made, so no link reaches the hidden meta table.
 */
export function applyEavRules(db: DbModel, tables: GqlTable[], resolved: ResolvedMetadata, problems: ModelProblem[]): void {
  misplaced(resolved, problems);
  const byKey = new Map(tables.map((table) => [table.key, table]));
  const claimedBy = new Map<string, string>();
  for (const meta of db.tables) {
    const key = tableKey(meta);
    const props = resolved.tables.get(key) ?? {};
    const read = new PropertyReader(key, props, resolved, problems);
    const family = Object.keys(props).filter((name) => name.startsWith('eav-'));
    if (family.length === 0) continue;
    for (const name of family) if (!EAV_KEYS.includes(name)) read.problem(name, `${name} is not an EAV key: the spec's are ${EAV_KEYS.join(', ')}`, false);
    const missing = EAV_KEYS.filter((name) => read.text(name) === undefined);
    if (missing.length === EAV_KEYS.length) continue;
    if (missing.length > 0) {
      const present = EAV_KEYS.find((name) => read.has(name));
      read.problem(present, `an EAV meta table needs all four of ${EAV_KEYS.join(', ')}; ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing or empty`, false);
      continue;
    }
    const eav = eavOf(db, meta, read, byKey, claimedBy);
    if (!eav) continue;
    const parent = byKey.get(eav.parent)!;
    parent.eav = eav.config;
    claimedBy.set(parent.key, key);
    const metaTable = byKey.get(key);
    if (metaTable) metaTable.hidden = true;
  }
}

function eavOf(db: DbModel, meta: DbTable, read: PropertyReader, byKey: Map<string, GqlTable>, claimedBy: Map<string, string>): {parent: string; config: TableEav} | undefined {
  const parentName = read.text(EAV_KEY.parent)!;
  const parentDb = findParent(db, meta, parentName);
  const parent = parentDb ? byKey.get(tableKey(parentDb)) : undefined;
  if (!parentDb || !parent) {
    read.problem(EAV_KEY.parent, `no such table in schema ${meta.schema} (write schema.table for another schema)`);
    return undefined;
  }
  let ok = true;
  const column = (name: string): GqlColumn | undefined => {
    const wanted = read.text(name)!.toLowerCase();
    const found = meta.columns.find((candidate) => candidate.name.toLowerCase() === wanted);
    if (!found) {
      read.problem(name, `${meta.name} has no such column`);
      ok = false;
      return undefined;
    }
    return gqlColumnOf(byKey.get(tableKey(meta)), found.name);
  };
  const fk = column(EAV_KEY.fk);
  const key = column(EAV_KEY.key);
  const value = column(EAV_KEY.value);
  if (key && key.kind !== 'string') {
    read.problem(EAV_KEY.key, `the attribute-name column must be text; ${key.dbName} is ${key.dataType}`);
    ok = false;
  }
  if (value && !EAV_VALUE_KINDS.includes(value.kind)) {
    read.problem(EAV_KEY.value, `the attribute-value column must be text or a number; ${value.dbName} is ${value.dataType} (${value.kind})`);
    ok = false;
  }
  if (parent.key === tableKey(meta)) {
    read.problem(EAV_KEY.parent, 'names the meta table itself');
    ok = false;
  }
  if (parent.primaryKey.length !== 1 || parent.isView) {
    read.problem(
      EAV_KEY.parent,
      `${parent.key} needs a primary key of one column for its attributes to hang on (it has ${parent.isView ? 'none: it is a view' : parent.primaryKey.length === 0 ? 'none' : `${parent.primaryKey.length} columns`})`,
    );
    ok = false;
  }
  const earlier = claimedBy.get(parent.key);
  if (earlier) {
    read.problem(EAV_KEY.parent, `${parent.key} already has the EAV meta table ${earlier}: a parent takes one (merge them, or drop the keys of one)`);
    ok = false;
  }
  const taken = parent.columns.filter((candidate) => EAV_FIELDS.includes(candidate.name));
  if (taken.length > 0) {
    read.problem(EAV_KEY.parent, `${parent.key} has column(s) ${taken.map((candidate) => candidate.name).join(', ')}, which the EAV fields ${EAV_FIELDS.join(', ')} would hide`);
    ok = false;
  }
  if (!dialectOf(db.provider).servesAttributes) {
    read.problem(EAV_KEY.parent, 'EAV attributes are not available on SQL Server in this service');
    ok = false;
  }
  if (!ok || !fk || !key || !value) return undefined;
  return {parent: parent.key, config: {table: tableKey(meta), fk: fk.dbName, key: key.dbName, value: value.dbName, valueKind: value.kind}};
}

function gqlColumnOf(table: GqlTable | undefined, dbName: string): GqlColumn | undefined {
  return table?.columns.find((column) => column.dbName === dbName);
}
