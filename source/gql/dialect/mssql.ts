import type {Knex} from 'knex';
import {WorkbenchError} from '../../core/errors.js';
import type {Row} from '../types.js';
import type {Dialect} from './dialect.js';
import {list, literalKey, notOn, orderRows, orderSql, upsertSetColumns} from './sql-text.js';

// SQL Server 2017+ (tedious). Written and checked as SQL text only: no SQL Server runs here
// (test/unit/gql/query-compile.test.ts holds its statements).

const noAttributes = () => {
  throw new WorkbenchError('invalid_argument', 'EAV attributes are not available on SQL Server in this service');
};

/** SQL Server. */
export const mssql: Dialect = {
  provider: 'sqlserver',
  quoteIdentifier: (name) => `[${name.replaceAll(']', ']]')}]`,
  qualifiedName: (schema, name) => (schema ? `${schema}.${name}` : name),
  quotedTableName: (schema, name) => `${mssql.quoteIdentifier(schema)}.${mssql.quoteIdentifier(name)}`,

  jsonObject(db, pairs) {
    // FOR JSON PATH over a FROM-less select of the row's values: one object, nulls kept.
    if (pairs.length === 0) return db.raw(`'{}'`);
    const list = pairs.map((pair) => `${pair.sql} as ${literalKey(pair.key).replace(/^'(.*)'$/, '[$1]')}`).join(', ');
    return db.raw(`(select ${list} for json path, without_array_wrapper, include_null_values)`, pairs.flatMap((pair) => pair.bindings) as Knex.RawBinding[]);
  },
  // A subquery's JSON is text: json_query() keeps it JSON inside FOR JSON.
  embeddedJson: 'json_query(?)',
  jsonArrayAgg(db, {rows, object, order, limit, offset, innerAlias}) {
    // The limited, ordered rows (a correlated derived table), their objects joined by string_agg in order.
    const sorted = orderSql(order);
    rows.select(db.raw('? as j', [object]), db.raw(`row_number() over (order by ${sorted.sql}) as rn`, sorted.bindings));
    orderRows(rows, order);
    rows.limit(limit).offset(offset);
    const inner = innerAlias();
    return db.raw(`coalesce((select '[' + string_agg(cast(?? as nvarchar(max)), ',') within group (order by ??) + ']' from ? as ??), '[]')`, [
      `${inner}.j`,
      `${inner}.rn`,
      rows,
      inner,
    ]);
  },
  exactNumberAsText: 'cast(?? as nvarchar(64))',
  bytesAsHex: 'lower(convert(varchar(max), ??, 2))',
  // The settings refuse EAV on SQL Server (eav/eav-options.ts): no statement gets here.
  servesAttributes: false,
  attributeObjectAgg: noAttributes,
  attributeListAgg: noAttributes,

  // LIKE has no escape character unless one is named.
  whereLikeEscaped: (qb, ref, pattern) => void qb.whereRaw(`?? like ? escape '\\'`, [ref, pattern]),

  pooled: true,
  runsPooledWithDeadline: false,
  // No session deadline here: SQLite's reads are cut by ending their reader process, SQL Server's by knex's timeout with cancel.
  setStatementTimeout: async () => false,
  cancelStatement: async () => undefined,
  afterCancel: async () => undefined,
  isStatementTimeout: () => false,
  sendsPreparedNative: false,
  cancelsOnTimeout: true,
  rowsOf: (result) => (Array.isArray(result) ? (result as Row[]) : []),
  // No catalogue estimate read yet: the limits alone bound its queries.
  rowEstimates: async () => new Map(),
  callProcedure(db, procedure, args, send) {
    const name = `${procedure.schema}.${procedure.dbName}`;
    const values = procedure.params.filter((param) => param.mode !== 'out').map((param) => args[param.name] ?? null);
    return send(db.raw(`exec ?? ${values.map(() => '?').join(', ')}`, [name, ...values] as never[]));
  },

  // Its limit is 2100 a statement.
  maxBindings: 2_000,
  affectedRows: (result) => (Array.isArray(result) ? result.length : Number(result ?? 0)),
  returnedRows: (result) => (Array.isArray(result) ? (result as Row[]) : []),
  insertAnswersInsertId: false,
  upsert(db, upsert, guardOn) {
    // MERGE … WHEN MATCHED AND guard, holding the key range so two upserts cannot both insert.
    const columns = Object.keys(upsert.row);
    const values = columns.map((column) => upsert.row[column]);
    const setColumns = upsertSetColumns(upsert);
    const keys = upsert.keyColumns;
    const guard = guardOn('wb_target');
    const on = keys.map(() => 'wb_target.?? = wb_source.??').join(' and ');
    const assignments = setColumns.map((column) => (column in upsert.set ? 'wb_target.?? = ?' : 'wb_target.?? = wb_source.??'));
    const assignmentBindings = setColumns.flatMap((column) => (column in upsert.set ? [column, upsert.set[column]] : [column, column]));
    const sql =
      `merge into ?? with (holdlock) as wb_target using (values (${list(columns.length, '?')})) as wb_source (${list(columns.length, '??')}) on ${on} ` +
      `when matched${guard ? ` and ${guard.sql}` : ''} then update set ${assignments.join(', ')} ` +
      `when not matched then insert (${list(columns.length, '??')}) values (${list(columns.length, 'wb_source.??')}) ` +
      `output ${list(keys.length, 'inserted.??')};`;
    return db.raw(sql, [
      upsert.ref,
      ...values,
      ...columns,
      ...keys.flatMap((key) => [key, key]),
      ...(guard?.bindings ?? []),
      ...assignmentBindings,
      ...columns,
      ...columns,
      ...keys,
    ] as Knex.RawBinding[]);
  },
  upsertReturnsWrittenKey: true,
  storesDatesAsText: false,
  lockForUpdate: (qb) => qb.forUpdate(),
  lockSkippingLocked: (qb) => qb.forUpdate().skipLocked(),
  // bit: 0 or 1.
  storedBoolean: (value) => (value ? 1 : 0),
  transactionalDdl: true,
  setBasedBatches: true,
  // No RETURNING to capture the inserted rows with: with events its batches go per row.
  setBasedBatchesCaptureEvents: false,
  // `#`: a local temporary table, dropped with the session if not before.
  stagingTable: (suffix) => `#wb_stage_${suffix}`,
  createStagingTable: (db, stage, columns, ref) => db.raw(`select ${columns.map(() => '??').join(', ')} into ?? from ?? where 1 = 0`, [...columns, stage, ref]),
  afterStaging: () => undefined,
  updateFromStaging(db, {ref, alias, stage, keys, setColumns, guard}) {
    const on = keys.map(() => '??.?? = wb_s.??').join(' and ');
    const where = guard ? ` where ${guard.sql}` : '';
    const sql = `update ?? set ${setColumns.map(() => '??.?? = wb_s.??').join(', ')} from ?? as ?? join ?? as wb_s on ${on}${where}`;
    const bindings = [
      alias,
      ...setColumns.flatMap((column) => [alias, column, column]),
      ref,
      alias,
      stage,
      ...keys.flatMap((key) => [alias, key, key]),
      ...(guard?.bindings ?? []),
    ];
    return db.raw(sql, bindings as Knex.RawBinding[]);
  },
  dropStagingTable: (db, stage) => db.raw('drop table ??', [stage]),
  insertReturningAll: () => notOn('SQL Server', 'an insert capturing its rows on the set-based batch'),
};
