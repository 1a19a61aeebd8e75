/**
 * SQLite's catalog in two statements: every column of every table and view (pragma_table_xinfo
 * joined to sqlite_schema), and every foreign key (pragma_foreign_key_list likewise).
 */
import type {Knex} from 'knex';
import type {Catalog, CatalogColumn, CatalogKey} from './catalog.js';
import {columnKind} from './column-kind.js';

interface ColumnRow {
  table_name: string;
  object_type: 'table' | 'view';
  object_sql: string | null;
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
  hidden: number;
}

interface ForeignKeyRow {
  table_name: string;
  id: number;
  seq: number;
  table: string;
  from: string;
  to: string | null;
}

/** Each table and view (SQLite's own tables aside) joined to one of its table-valued pragmas. */
const perObject = (pragma: string, select: string, order: string) =>
  `select m.name as table_name, ${select} from sqlite_schema as m join ${pragma}(m.name) as p
   where m.type in ('table', 'view') and m.name not like 'sqlite\\_%' escape '\\' order by m.name, ${order}`;

export async function sqliteCatalog(db: Knex): Promise<Catalog> {
  const [columns, foreignKeys] = await Promise.all([
    db.raw<ColumnRow[]>(perObject('pragma_table_xinfo', 'm.type as object_type, m.sql as object_sql, p.name, p.type, p."notnull", p.dflt_value, p.pk, p.hidden', 'p.cid')),
    db.raw<ForeignKeyRow[]>(perObject('pragma_foreign_key_list', 'p.id, p.seq, p."table", p."from", p."to"', 'p.id, p.seq')),
  ]);
  return assembleSqlite(columns, foreignKeys);
}

/** Rows of the two statements → Catalog (separate so the rowid and implicit-key rules are testable on their own). */
export function assembleSqlite(columnRows: ColumnRow[], foreignKeyRows: ForeignKeyRow[]): Catalog {
  const columns: CatalogColumn[] = [];
  const primaryKeys = new Map<string, Array<{column: string; position: number}>>();
  const declaredTypes = new Map<string, string>();
  const withoutRowid = new Set<string>();
  // Hidden 1 is a virtual table's hidden column: not part of the table as queried.
  const visible = columnRows.filter((row) => row.hidden !== 1);
  for (const row of visible) {
    if (row.object_sql && /\bwithout\s+rowid\s*$/i.test(row.object_sql.trim())) withoutRowid.add(row.table_name);
    if (row.pk > 0) {
      const key = primaryKeys.get(row.table_name) ?? [];
      key.push({column: row.name, position: row.pk});
      primaryKeys.set(row.table_name, key);
    }
    declaredTypes.set(`${row.table_name}\u0000${row.name}`, row.type);
  }
  // A single-column INTEGER PRIMARY KEY on a rowid table is the rowid itself: SQLite fills it on insert.
  const rowidAlias = (table: string, column: string) => {
    const key = primaryKeys.get(table);
    return key?.length === 1 && key[0]!.column === column && !withoutRowid.has(table) && declaredTypes.get(`${table}\u0000${column}`)?.trim().toUpperCase() === 'INTEGER';
  };
  for (const row of visible) {
    const identity = row.object_type === 'table' && rowidAlias(row.table_name, row.name);
    columns.push({
      schema: 'main',
      table: row.table_name,
      isView: row.object_type === 'view',
      name: row.name,
      dataType: row.type.toLowerCase(),
      kind: columnKind('sqlite', row.type),
      // A rowid alias never holds null, whatever its declaration says.
      nullable: row.notnull === 0 && !identity,
      isIdentity: identity,
      // Hidden 2 and 3 are generated columns: the database fills them.
      hasDefault: row.dflt_value !== null || identity || row.hidden >= 2,
    });
  }

  const keys: CatalogKey[] = [];
  for (const [table, key] of primaryKeys)
    keys.push({schema: 'main', table, name: `pk_${table}`, type: 'primary', columns: key.sort((a, b) => a.position - b.position).map((entry) => entry.column)});
  const tableNames = [...new Set(visible.map((row) => row.table_name))];
  const foreign = new Map<string, CatalogKey>();
  for (const row of foreignKeyRows) {
    const id = `${row.table_name}\u0000${row.id}`;
    let key = foreign.get(id);
    // SQLite matches the referenced name case-insensitively: name it as the table itself is spelt.
    const refTable = tableNames.find((name) => name.toLowerCase() === row.table.toLowerCase()) ?? row.table;
    if (!key)
      foreign.set(
        id,
        (key = {schema: 'main', table: row.table_name, name: `fk_${row.table_name}_${row.id}`, type: 'foreign', columns: [], refSchema: 'main', refTable, refColumns: []}),
      );
    key.columns.push(row.from);
    key.refColumns!.push(row.to ?? '');
  }
  for (const key of foreign.values()) {
    // `REFERENCES parent` without columns means the parent's primary key.
    if (key.refColumns!.some((column) => column === '')) key.refColumns = primaryKeys.get(key.refTable!)?.map((entry) => entry.column) ?? key.refColumns;
    keys.push(key);
  }
  return {defaultSchema: 'main', columns, keys, procedures: []};
}
