/** A provider's Catalog → the DbModel every later stage reads, in a stable order (schema, then name). */
import type {DbModel, DbTable, Provider} from '../types.js';
import type {Catalog} from './catalog.js';

const byName = (a: {schema: string; name: string}, b: {schema: string; name: string}) => (a.schema === b.schema ? compare(a.name, b.name) : compare(a.schema, b.schema));
// Code-point order, not the locale's: the same on every machine.
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function assembleDbModel(provider: Provider, catalog: Catalog, schemas?: readonly string[]): DbModel {
  const wanted = schemas && schemas.length > 0 ? new Set(schemas) : undefined;
  const keep = (schema: string) => !wanted || wanted.has(schema);
  const tables = new Map<string, DbTable>();
  for (const {schema, table, isView, ...column} of catalog.columns) {
    if (!keep(schema)) continue;
    const key = `${schema}.${table}`;
    let entry = tables.get(key);
    if (!entry) tables.set(key, (entry = {schema, name: table, columns: [], primaryKey: [], foreignKeys: [], isView}));
    entry.columns.push(column);
  }
  for (const key of catalog.keys) {
    const table = tables.get(`${key.schema}.${key.table}`);
    if (!table) continue;
    if (key.type === 'primary') table.primaryKey = [...key.columns];
    else table.foreignKeys.push({name: key.name, columns: [...key.columns], refSchema: key.refSchema!, refTable: key.refTable!, refColumns: [...(key.refColumns ?? [])]});
  }
  for (const table of tables.values()) table.foreignKeys.sort((a, b) => compare(a.name, b.name));
  return {
    provider,
    defaultSchema: catalog.defaultSchema,
    tables: [...tables.values()].sort(byName),
    procedures: catalog.procedures.filter((procedure) => keep(procedure.schema)).sort(byName),
  };
}
