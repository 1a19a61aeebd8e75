/**
 * MySQL / MariaDB's catalog in three statements on information_schema, limited to the connected
 * database (a MySQL "schema" is a database, and a connection string names one): columns with
 * their tables' kinds, the PRIMARY and foreign key columns in key order, and the routines with
 * their parameters.
 */
import type {Knex} from 'knex';
import type {DbProcedure, DbProcedureParam} from '../types.js';
import type {Catalog, CatalogColumn, CatalogKey} from './catalog.js';
import {columnKind} from './column-kind.js';

const COLUMNS = `
select c.table_schema as \`schema\`, c.table_name as \`table\`, t.table_type = 'VIEW' as is_view, c.column_name as name,
  c.data_type, c.column_type, c.is_nullable = 'YES' as nullable, c.extra, c.column_default
from information_schema.columns c
join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
where c.table_schema = database()
order by c.table_name, c.ordinal_position`;

const KEYS = `
select k.table_schema as \`schema\`, k.table_name as \`table\`, k.constraint_name as name, k.column_name as \`column\`,
  k.referenced_table_schema as ref_schema, k.referenced_table_name as ref_table, k.referenced_column_name as ref_column
from information_schema.key_column_usage k
where k.table_schema = database() and (k.constraint_name = 'PRIMARY' or k.referenced_table_name is not null)
order by k.table_name, k.constraint_name, k.ordinal_position`;

// Parameter 0 of a function is its return value; a procedure's parameters start at 1.
const ROUTINES = `
select r.routine_schema as \`schema\`, r.routine_name as name, r.routine_type as type, r.routine_definition as body,
  p.parameter_name as param, p.parameter_mode as mode, p.data_type as param_type, p.dtd_identifier as param_full_type
from information_schema.routines r
left join information_schema.parameters p on p.specific_schema = r.routine_schema and p.specific_name = r.routine_name and p.routine_type = r.routine_type and p.ordinal_position > 0
where r.routine_schema = database()
order by r.routine_name, r.routine_type, p.ordinal_position`;

interface ColumnRow {
  schema: string;
  table: string;
  is_view: number;
  name: string;
  data_type: string;
  column_type: string;
  nullable: number;
  extra: string;
  column_default: string | null;
}

interface KeyRow {
  schema: string;
  table: string;
  name: string;
  column: string;
  ref_schema: string | null;
  ref_table: string | null;
  ref_column: string | null;
}

interface RoutineRow {
  schema: string;
  name: string;
  type: 'PROCEDURE' | 'FUNCTION';
  body: string | null;
  param: string | null;
  mode: 'IN' | 'OUT' | 'INOUT' | null;
  param_type: string | null;
  param_full_type: string | null;
}

/** mysql2 answers information_schema columns in upper case on MySQL 8 and as aliased on MariaDB: read both. */
function lowerKeys<T>(rows: Array<Record<string, unknown>>): T[] {
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key.toLowerCase(), value])) as T);
}

export async function mysqlCatalog(db: Knex): Promise<Catalog> {
  const [[schema], [columns], [keys], [routines]] = await Promise.all([
    db.raw<[Array<{schema: string}>]>('select database() as `schema`'),
    db.raw<[Array<Record<string, unknown>>]>(COLUMNS),
    db.raw<[Array<Record<string, unknown>>]>(KEYS),
    db.raw<[Array<Record<string, unknown>>]>(ROUTINES),
  ]);
  return assembleMysql(schema[0]?.schema ?? '', lowerKeys<ColumnRow>(columns), lowerKeys<KeyRow>(keys), lowerKeys<RoutineRow>(routines));
}

/** A body that selects rows without selecting them INTO variables hands a result set back. */
const SELECTS_ROWS = /\bselect\b(?![^;]*\binto\b)/i;

export function assembleMysql(defaultSchema: string, columnRows: ColumnRow[], keyRows: KeyRow[], routineRows: RoutineRow[]): Catalog {
  const columns: CatalogColumn[] = columnRows.map((row) => ({
    schema: row.schema,
    table: row.table,
    isView: Boolean(Number(row.is_view)),
    name: row.name,
    dataType: row.data_type.toLowerCase(),
    kind: columnKind('mysql', row.data_type, row.column_type),
    nullable: Boolean(Number(row.nullable)),
    isIdentity: /auto_increment/i.test(row.extra ?? ''),
    // MariaDB reports a nullable column without a default as the literal NULL (a string default would be quoted).
    hasDefault: (row.column_default !== null && row.column_default !== 'NULL') || /auto_increment|generated/i.test(row.extra ?? ''),
  }));

  const keys = new Map<string, CatalogKey>();
  for (const row of keyRows) {
    const id = `${row.table}\u0000${row.name}`;
    let key = keys.get(id);
    if (!key) {
      key =
        row.name === 'PRIMARY'
          ? {schema: row.schema, table: row.table, name: row.name, type: 'primary', columns: []}
          : {schema: row.schema, table: row.table, name: row.name, type: 'foreign', columns: [], refSchema: row.ref_schema!, refTable: row.ref_table!, refColumns: []};
      keys.set(id, key);
    }
    key.columns.push(row.column);
    if (key.type === 'foreign') key.refColumns!.push(row.ref_column!);
  }

  const procedures = new Map<string, DbProcedure>();
  for (const row of routineRows) {
    const id = `${row.type}\u0000${row.name}`;
    let procedure = procedures.get(id);
    if (!procedure) {
      procedure = {schema: row.schema, name: row.name, params: [], returnsRows: row.type === 'PROCEDURE' && SELECTS_ROWS.test(row.body ?? '')};
      procedures.set(id, procedure);
    }
    if (row.param !== null && row.param_type !== null) {
      const mode: DbProcedureParam['mode'] = row.mode === 'OUT' ? 'out' : row.mode === 'INOUT' ? 'inout' : 'in';
      procedure.params.push({name: row.param, kind: columnKind('mysql', row.param_type, row.param_full_type ?? row.param_type), mode});
    }
  }
  return {defaultSchema, columns, keys: [...keys.values()], procedures: [...procedures.values()]};
}
