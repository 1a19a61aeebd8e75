/**
 * PostgreSQL's catalog in three statements on pg_catalog (information_schema is far slower and
 * hides what the current role does not own): columns of every table, view, materialized view,
 * foreign and partitioned table; primary and foreign keys with their columns in key order; and
 * functions and procedures with their parameters. Every schema but the system ones is read, and
 * objects an extension installed are left out (they are the extension's, not the application's).
 */
import type {Knex} from 'knex';
import type {DbProcedure, DbProcedureParam} from '../types.js';
import type {Catalog, CatalogColumn, CatalogKey} from './catalog.js';
import {columnKind} from './column-kind.js';

const USER_SCHEMA = `n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp\\_%'`;
const NOT_FROM_EXTENSION = (oid: string, catalog: string) =>
  `not exists (select 1 from pg_depend d where d.classid = '${catalog}'::regclass and d.objid = ${oid} and d.deptype = 'e')`;

const COLUMNS = `
select n.nspname as schema, c.relname as table, c.relkind in ('v', 'm') as is_view, a.attname as name,
  format_type(coalesce(nullif(t.typbasetype, 0), a.atttypid), null) as data_type,
  coalesce(bt.typcategory, t.typcategory) = 'A' as is_array,
  not a.attnotnull as nullable,
  a.attidentity <> '' or coalesce(pg_get_expr(ad.adbin, ad.adrelid), '') like 'nextval(%' as is_identity,
  ad.adbin is not null or a.attidentity <> '' or a.attgenerated <> '' as has_default
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
join pg_type t on t.oid = a.atttypid
left join pg_type bt on bt.oid = nullif(t.typbasetype, 0)
left join pg_attrdef ad on ad.adrelid = c.oid and ad.adnum = a.attnum
where c.relkind in ('r', 'p', 'v', 'm', 'f') and not c.relispartition and ${USER_SCHEMA} and ${NOT_FROM_EXTENSION('c.oid', 'pg_class')}
order by n.nspname, c.relname, a.attnum`;

// Columns by position in the key (unnest … with ordinality), so composite keys keep their order.
const KEY_COLUMNS = (keys: string, table: string) =>
  `array(select a.attname::text from unnest(k.${keys}) with ordinality as u(attnum, position) join pg_attribute a on a.attrelid = k.${table} and a.attnum = u.attnum order by u.position)`;

const KEYS = `
select n.nspname as schema, c.relname as table, k.conname as name, k.contype as type, ${KEY_COLUMNS('conkey', 'conrelid')} as columns,
  rn.nspname as ref_schema, rc.relname as ref_table, ${KEY_COLUMNS('confkey', 'confrelid')} as ref_columns
from pg_constraint k
join pg_class c on c.oid = k.conrelid
join pg_namespace n on n.oid = c.relnamespace
left join pg_class rc on rc.oid = k.confrelid
left join pg_namespace rn on rn.oid = rc.relnamespace
where k.contype in ('p', 'f') and not c.relispartition and ${USER_SCHEMA}
order by n.nspname, c.relname, k.conname`;

// Modes: i in, o out, b inout, v variadic (an in), t a RETURNS TABLE column (a result column, not a parameter).
const PROCEDURES = `
select n.nspname as schema, p.proname as name, p.prokind as kind, p.proretset as returns_set,
  coalesce((select json_agg(json_build_object('name', coalesce(p.proargnames[u.position], ''), 'mode', coalesce(p.proargmodes[u.position]::text, 'i'), 'type', format_type(u.type, null)) order by u.position)
    from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality as u(type, position)), '[]') as params
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
where p.prokind in ('f', 'p') and p.prorettype not in ('trigger'::regtype, 'event_trigger'::regtype, 'internal'::regtype) and ${USER_SCHEMA} and ${NOT_FROM_EXTENSION('p.oid', 'pg_proc')}
order by n.nspname, p.proname, p.oid`;

interface ColumnRow {
  schema: string;
  table: string;
  is_view: boolean;
  name: string;
  data_type: string;
  is_array: boolean;
  nullable: boolean;
  is_identity: boolean;
  has_default: boolean;
}

interface KeyRow {
  schema: string;
  table: string;
  name: string;
  type: 'p' | 'f';
  columns: string[];
  ref_schema: string | null;
  ref_table: string | null;
  ref_columns: string[];
}

interface ProcedureRow {
  schema: string;
  name: string;
  kind: 'f' | 'p';
  returns_set: boolean;
  params: Array<{name: string; mode: string; type: string}>;
}

export async function postgresCatalog(db: Knex): Promise<Catalog> {
  const [schema, columns, keys, procedures] = await Promise.all([
    db.raw<{rows: Array<{schema: string}>}>('select current_schema() as schema'),
    db.raw<{rows: ColumnRow[]}>(COLUMNS),
    db.raw<{rows: KeyRow[]}>(KEYS),
    db.raw<{rows: ProcedureRow[]}>(PROCEDURES),
  ]);
  return assemblePostgres(schema.rows[0]?.schema ?? 'public', columns.rows, keys.rows, procedures.rows);
}

const MODES: Record<string, DbProcedureParam['mode'] | undefined> = {i: 'in', v: 'in', o: 'out', b: 'inout'};

export function assemblePostgres(defaultSchema: string, columnRows: ColumnRow[], keyRows: KeyRow[], procedureRows: ProcedureRow[]): Catalog {
  const columns: CatalogColumn[] = columnRows.map((row) => ({
    schema: row.schema,
    table: row.table,
    isView: row.is_view,
    name: row.name,
    dataType: row.data_type,
    kind: row.is_array ? 'json' : columnKind('postgres', row.data_type.replace(/\[\]$/, ''), row.data_type),
    nullable: row.nullable,
    isIdentity: row.is_identity,
    hasDefault: row.has_default,
  }));
  const keys: CatalogKey[] = keyRows.map((row) =>
    row.type === 'p'
      ? {schema: row.schema, table: row.table, name: row.name, type: 'primary', columns: row.columns}
      : {
          schema: row.schema,
          table: row.table,
          name: row.name,
          type: 'foreign',
          columns: row.columns,
          refSchema: row.ref_schema!,
          refTable: row.ref_table!,
          refColumns: row.ref_columns,
        },
  );
  const procedures: DbProcedure[] = procedureRows.map((row) => {
    const params: DbProcedureParam[] = [];
    for (const [position, param] of row.params.entries()) {
      const mode = MODES[param.mode];
      if (mode) params.push({name: param.name || `$${position + 1}`, kind: columnKind('postgres', param.type.replace(/\[\]$/, ''), param.type), mode});
    }
    const resultColumns = row.params.some((param) => param.mode === 't');
    return {schema: row.schema, name: row.name, params, returnsRows: row.kind === 'f' && (row.returns_set || resultColumns)};
  });
  return {defaultSchema, columns, keys, procedures};
}
