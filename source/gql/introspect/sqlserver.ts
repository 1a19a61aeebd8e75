/**
 * SQL Server's catalog in four statements on the sys views: columns of user tables and views,
 * primary keys, foreign keys (both with their columns in key order), and procedures with their
 * parameters. No server runs here: the statements are built with knex's mssql dialect and checked
 * as SQL text, and the row assembly is checked on rows shaped like the driver's.
 */
import type {Knex} from 'knex';
import type {DbProcedure} from '../types.js';
import type {Catalog, CatalogColumn, CatalogKey} from './catalog.js';
import {columnKind} from './column-kind.js';

export interface SqlServerStatements {
  defaultSchema: Knex.Raw;
  columns: Knex.QueryBuilder;
  primaryKeys: Knex.QueryBuilder;
  foreignKeys: Knex.QueryBuilder;
  procedures: Knex.QueryBuilder;
}

/** The catalog statements; `db` may be a connectionless `knex({client: 'mssql'})` to read their SQL. */
export function sqlServerStatements(db: Knex): SqlServerStatements {
  const columns = db
    .select({
      schema: 's.name',
      table: 'o.name',
      object_type: 'o.type',
      name: 'c.name',
      // An alias type reads as the system type it stands for.
      data_type: db.raw('type_name(c.system_type_id)'),
      nullable: 'c.is_nullable',
      is_identity: 'c.is_identity',
      has_default: db.raw('cast(case when c.default_object_id <> 0 or c.is_computed = 1 or c.is_identity = 1 then 1 else 0 end as bit)'),
    })
    .from({c: 'sys.columns'})
    .join({o: 'sys.objects'}, 'o.object_id', 'c.object_id')
    .join({s: 'sys.schemas'}, 's.schema_id', 'o.schema_id')
    .whereIn('o.type', ['U', 'V'])
    .andWhere('o.is_ms_shipped', 0)
    .orderBy(['s.name', 'o.name', 'c.column_id']);

  const primaryKeys = db
    .select({schema: 's.name', table: 'o.name', name: 'i.name', column: 'c.name'})
    .from({i: 'sys.indexes'})
    .join({ic: 'sys.index_columns'}, function () {
      this.on('ic.object_id', 'i.object_id').andOn('ic.index_id', 'i.index_id');
    })
    .join({c: 'sys.columns'}, function () {
      this.on('c.object_id', 'ic.object_id').andOn('c.column_id', 'ic.column_id');
    })
    .join({o: 'sys.objects'}, 'o.object_id', 'i.object_id')
    .join({s: 'sys.schemas'}, 's.schema_id', 'o.schema_id')
    .where('i.is_primary_key', 1)
    .andWhere('o.is_ms_shipped', 0)
    .orderBy(['s.name', 'o.name', 'ic.key_ordinal']);

  const foreignKeys = db
    .select({schema: 's.name', table: 'o.name', name: 'fk.name', column: 'pc.name', ref_schema: 'rs.name', ref_table: 'ro.name', ref_column: 'rc.name'})
    .from({fk: 'sys.foreign_keys'})
    .join({fkc: 'sys.foreign_key_columns'}, 'fkc.constraint_object_id', 'fk.object_id')
    .join({o: 'sys.objects'}, 'o.object_id', 'fk.parent_object_id')
    .join({s: 'sys.schemas'}, 's.schema_id', 'o.schema_id')
    .join({pc: 'sys.columns'}, function () {
      this.on('pc.object_id', 'fkc.parent_object_id').andOn('pc.column_id', 'fkc.parent_column_id');
    })
    .join({ro: 'sys.objects'}, 'ro.object_id', 'fk.referenced_object_id')
    .join({rs: 'sys.schemas'}, 'rs.schema_id', 'ro.schema_id')
    .join({rc: 'sys.columns'}, function () {
      this.on('rc.object_id', 'fkc.referenced_object_id').andOn('rc.column_id', 'fkc.referenced_column_id');
    })
    .where('o.is_ms_shipped', 0)
    .orderBy(['s.name', 'o.name', 'fk.name', 'fkc.constraint_column_id']);

  // Parameter 0 is a function's return value; procedures start at 1. A left join keeps procedures without parameters.
  const procedures = db
    .select({schema: 's.name', name: 'p.name', param: 'prm.name', param_type: db.raw('type_name(prm.system_type_id)'), is_output: 'prm.is_output'})
    .from({p: 'sys.procedures'})
    .join({s: 'sys.schemas'}, 's.schema_id', 'p.schema_id')
    .leftJoin({prm: 'sys.parameters'}, function () {
      this.on('prm.object_id', 'p.object_id').andOn('prm.parameter_id', '>', db.raw('0'));
    })
    .where('p.is_ms_shipped', 0)
    .orderBy(['s.name', 'p.name', 'prm.parameter_id']);

  return {defaultSchema: db.raw('select schema_name() as [schema]'), columns, primaryKeys, foreignKeys, procedures};
}

export interface SqlServerRows {
  defaultSchema: string;
  columns: Array<{schema: string; table: string; object_type: string; name: string; data_type: string; nullable: boolean; is_identity: boolean; has_default: boolean}>;
  primaryKeys: Array<{schema: string; table: string; name: string; column: string}>;
  foreignKeys: Array<{schema: string; table: string; name: string; column: string; ref_schema: string; ref_table: string; ref_column: string}>;
  procedures: Array<{schema: string; name: string; param: string | null; param_type: string | null; is_output: boolean | null}>;
}

export async function sqlServerCatalog(db: Knex): Promise<Catalog> {
  const statements = sqlServerStatements(db);
  const [schema, columns, primaryKeys, foreignKeys, procedures] = await Promise.all([
    statements.defaultSchema as unknown as Promise<Array<{schema: string}>>,
    statements.columns,
    statements.primaryKeys,
    statements.foreignKeys,
    statements.procedures,
  ]);
  return assembleSqlServer({defaultSchema: schema[0]?.schema ?? 'dbo', columns, primaryKeys, foreignKeys, procedures} as SqlServerRows);
}

export function assembleSqlServer(rows: SqlServerRows): Catalog {
  const columns: CatalogColumn[] = rows.columns.map((row) => ({
    schema: row.schema,
    table: row.table,
    isView: row.object_type.trim() === 'V',
    name: row.name,
    dataType: row.data_type.toLowerCase(),
    kind: columnKind('sqlserver', row.data_type),
    nullable: Boolean(row.nullable),
    isIdentity: Boolean(row.is_identity),
    hasDefault: Boolean(row.has_default),
  }));
  const keys = new Map<string, CatalogKey>();
  for (const row of rows.primaryKeys) {
    const id = `p\u0000${row.schema}\u0000${row.table}`;
    const key = keys.get(id) ?? {schema: row.schema, table: row.table, name: row.name, type: 'primary' as const, columns: []};
    key.columns.push(row.column);
    keys.set(id, key);
  }
  for (const row of rows.foreignKeys) {
    const id = `f\u0000${row.schema}\u0000${row.table}\u0000${row.name}`;
    const key = keys.get(id) ?? {
      schema: row.schema,
      table: row.table,
      name: row.name,
      type: 'foreign' as const,
      columns: [],
      refSchema: row.ref_schema,
      refTable: row.ref_table,
      refColumns: [],
    };
    key.columns.push(row.column);
    key.refColumns!.push(row.ref_column);
    keys.set(id, key);
  }
  const procedures = new Map<string, DbProcedure>();
  for (const row of rows.procedures) {
    const id = `${row.schema}\u0000${row.name}`;
    // Whether a procedure hands back rows is only known by running it: a T-SQL procedure usually does.
    const procedure = procedures.get(id) ?? {schema: row.schema, name: row.name, params: [], returnsRows: true};
    procedures.set(id, procedure);
    // T-SQL OUTPUT parameters are read and written.
    if (row.param !== null && row.param_type !== null)
      procedure.params.push({name: row.param.replace(/^@/, ''), kind: columnKind('sqlserver', row.param_type), mode: row.is_output ? 'inout' : 'in'});
  }
  return {defaultSchema: rows.defaultSchema, columns, keys: [...keys.values()], procedures: [...procedures.values()]};
}
