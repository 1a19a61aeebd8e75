// SQL Server has no server here: its catalog statements are checked as SQL text (built by knex's
// mssql dialect), and the assembly on rows shaped like tedious returns them.
import knex from 'knex';
import {describe, expect, it} from 'vitest';
import {assembleDbModel} from '../../../../source/gql/introspect/assemble.js';
import {assembleSqlServer, sqlServerStatements} from '../../../../source/gql/introspect/sqlserver.js';

const statements = sqlServerStatements(knex({client: 'mssql'}));
const sql = (name: keyof typeof statements) => statements[name].toSQL();

describe('SQL Server catalog statements', () => {
  it('reads columns of user tables and views from sys.columns, in column order, with identity and default flags', () => {
    const {sql: text, bindings} = sql('columns');
    expect(text).toContain('from [sys].[columns] as [c] inner join [sys].[objects] as [o] on [o].[object_id] = [c].[object_id]');
    expect(text).toContain('type_name(c.system_type_id) as [data_type]');
    expect(text).toContain('[c].[is_identity] as [is_identity]');
    expect(text).toMatch(/where \[o\]\.\[type\] in \(\?, \?\) and \[o\]\.\[is_ms_shipped\] = \?/);
    expect(text).toMatch(/order by \[s\]\.\[name\] asc, \[o\]\.\[name\] asc, \[c\]\.\[column_id\] asc$/);
    expect(bindings).toEqual(['U', 'V', 0]);
  });

  it('reads primary keys in key order and foreign keys column by column in constraint order', () => {
    expect(sql('primaryKeys').sql).toContain('where [i].[is_primary_key] = ?');
    expect(sql('primaryKeys').sql).toMatch(/order by .*\[ic\]\.\[key_ordinal\] asc$/);
    const foreign = sql('foreignKeys').sql;
    expect(foreign).toContain('from [sys].[foreign_keys] as [fk] inner join [sys].[foreign_key_columns] as [fkc]');
    expect(foreign).toContain('[rc].[column_id] = [fkc].[referenced_column_id]');
    expect(foreign).toMatch(/order by .*\[fk\]\.\[name\] asc, \[fkc\]\.\[constraint_column_id\] asc$/);
  });

  it('reads procedures with their parameters, keeping procedures that take none', () => {
    const {sql: text} = sql('procedures');
    expect(text).toContain('from [sys].[procedures] as [p]');
    expect(text).toContain('left join [sys].[parameters] as [prm] on [prm].[object_id] = [p].[object_id] and [prm].[parameter_id] > 0');
    expect(sql('defaultSchema').sql).toBe('select schema_name() as [schema]');
  });
});

describe('SQL Server catalog rows → model', () => {
  const catalog = assembleSqlServer({
    defaultSchema: 'dbo',
    columns: [
      {schema: 'dbo', table: 'Orders', object_type: 'U ', name: 'OrderId', data_type: 'int', nullable: false, is_identity: true, has_default: true},
      {schema: 'dbo', table: 'Orders', object_type: 'U ', name: 'CustomerId', data_type: 'uniqueidentifier', nullable: false, is_identity: false, has_default: false},
      {schema: 'dbo', table: 'Orders', object_type: 'U ', name: 'Paid', data_type: 'bit', nullable: false, is_identity: false, has_default: true},
      {schema: 'dbo', table: 'Orders', object_type: 'U ', name: 'Total', data_type: 'money', nullable: true, is_identity: false, has_default: false},
      {schema: 'dbo', table: 'Orders', object_type: 'U ', name: 'PlacedAt', data_type: 'datetime2', nullable: false, is_identity: false, has_default: false},
      {schema: 'sales', table: 'Lines', object_type: 'U ', name: 'OrderId', data_type: 'int', nullable: false, is_identity: false, has_default: false},
      {schema: 'sales', table: 'Lines', object_type: 'U ', name: 'LineNo', data_type: 'smallint', nullable: false, is_identity: false, has_default: false},
      {schema: 'sales', table: 'Lines', object_type: 'U ', name: 'Note', data_type: 'nvarchar', nullable: true, is_identity: false, has_default: false},
      {schema: 'dbo', table: 'OpenOrders', object_type: 'V ', name: 'OrderId', data_type: 'int', nullable: false, is_identity: false, has_default: false},
    ],
    primaryKeys: [
      {schema: 'dbo', table: 'Orders', name: 'PK_Orders', column: 'OrderId'},
      {schema: 'sales', table: 'Lines', name: 'PK_Lines', column: 'OrderId'},
      {schema: 'sales', table: 'Lines', name: 'PK_Lines', column: 'LineNo'},
    ],
    foreignKeys: [{schema: 'sales', table: 'Lines', name: 'FK_Lines_Orders', column: 'OrderId', ref_schema: 'dbo', ref_table: 'Orders', ref_column: 'OrderId'}],
    procedures: [
      {schema: 'dbo', name: 'usp_Refund', param: '@OrderId', param_type: 'int', is_output: false},
      {schema: 'dbo', name: 'usp_Refund', param: '@Refunded', param_type: 'money', is_output: true},
      {schema: 'dbo', name: 'usp_Ping', param: null, param_type: null, is_output: null},
    ],
  });
  const model = assembleDbModel('sqlserver', catalog);

  it('groups columns per table with their kinds, keys in order, across schemas', () => {
    expect(model.tables.map((t) => `${t.schema}.${t.name}`)).toEqual(['dbo.OpenOrders', 'dbo.Orders', 'sales.Lines']);
    const orders = model.tables[1]!;
    expect(orders.columns.map((c) => [c.name, c.kind])).toEqual([
      ['OrderId', 'int'],
      ['CustomerId', 'uuid'],
      ['Paid', 'boolean'],
      ['Total', 'decimal'],
      ['PlacedAt', 'datetime'],
    ]);
    expect(orders.columns[0]).toMatchObject({isIdentity: true, hasDefault: true, nullable: false});
    expect(orders.primaryKey).toEqual(['OrderId']);
    const lines = model.tables[2]!;
    expect(lines.primaryKey).toEqual(['OrderId', 'LineNo']);
    expect(lines.foreignKeys).toEqual([{name: 'FK_Lines_Orders', columns: ['OrderId'], refSchema: 'dbo', refTable: 'Orders', refColumns: ['OrderId']}]);
    expect(model.tables[0]).toMatchObject({isView: true, primaryKey: []});
  });

  it('reads procedure parameters without the @, OUTPUT ones as inout', () => {
    expect(model.procedures).toEqual([
      {schema: 'dbo', name: 'usp_Ping', params: [], returnsRows: true},
      {
        schema: 'dbo',
        name: 'usp_Refund',
        params: [
          {name: 'OrderId', kind: 'int', mode: 'in'},
          {name: 'Refunded', kind: 'decimal', mode: 'inout'},
        ],
        returnsRows: true,
      },
    ]);
  });

  it('keeps only the schemas asked for', () => {
    expect(assembleDbModel('sqlserver', catalog, ['sales']).tables.map((t) => t.name)).toEqual(['Lines']);
  });
});
