import type {Knex} from 'knex';
import type {Row} from '../types.js';
import type {Dialect} from './dialect.js';
import {mysqlQuery} from './driver-connection.js';
import {jsonCall, list, orderSql, upsertSetColumns} from './sql-text.js';

// MariaDB and MySQL (the `mysql2` driver) share this dialect; the service is run and tested on
// MariaDB. Where the two differ, this file writes MariaDB's form:
// - JSON_ARRAYAGG with ORDER BY and LIMIT inside the aggregate is MariaDB's (10.5+); MySQL 8
//   takes neither there (and, like MariaDB, no correlated derived table to order in instead).
// - INSERT … RETURNING (the set-based batch's captured inserts) is MariaDB's (10.5+); MySQL has none.
// The rest (JSON_OBJECT, JSON_OBJECTAGG, ON DUPLICATE KEY UPDATE, multi-table UPDATE … JOIN,
// temporary tables, CALL with session variables for out parameters) both write alike.

/** MariaDB/MySQL. */
export const mysql: Dialect = {
  provider: 'mysql',
  quoteIdentifier: (name) => `\`${name.replaceAll('`', '``')}\``,
  qualifiedName: (schema, name) => (schema ? `${schema}.${name}` : name),
  quotedTableName: (schema, name) => `${mysql.quoteIdentifier(schema)}.${mysql.quoteIdentifier(name)}`,

  jsonObject(db, pairs) {
    if (pairs.length === 0) return db.raw('json_object()');
    const one = jsonCall('json_object', pairs);
    return db.raw(one.sql, one.bindings as Knex.RawBinding[]);
  },
  embeddedJson: '?',
  jsonArrayAgg(db, {rows, object, order, limit, offset}) {
    // The order and the per-parent window live inside the aggregate.
    const sorted = orderSql(order);
    const window = offset > 0 ? 'limit ? offset ?' : 'limit ?';
    const windowBindings = offset > 0 ? [limit, offset] : [limit];
    const agg = db.raw(`coalesce(json_arrayagg(?${sorted.sql ? ` order by ${sorted.sql}` : ''} ${window}), json_array())`, [object, ...sorted.bindings, ...windowBindings]);
    return rows.select(agg);
  },
  exactNumberAsText: 'cast(?? as char)',
  bytesAsHex: 'lower(hex(??))',
  servesAttributes: true,
  attributeObjectAgg: (db, {rows, keyRef, valueRef, valueSql}) => rows.select(db.raw(`coalesce(json_objectagg(??, ${valueSql}), json_object())`, [keyRef, valueRef])),
  attributeListAgg: (db, {rows, keyRef, valueRef, valueSql}) =>
    rows.select(db.raw(`coalesce(json_arrayagg(json_object('key', ??, 'value', ${valueSql}) order by ??, ??), json_array())`, [keyRef, valueRef, keyRef, valueRef])),

  // A backslash escapes LIKE by default (and an `escape '\\'` would read as an open string).
  whereLikeEscaped: (qb, ref, pattern) => void qb.where(ref, 'like', pattern),

  pooled: true,
  // JSON_ARRAYAGG is capped at group_concat_max_len (1 MB by default, cut silently): raised.
  sessionSetup: 'set session group_concat_max_len = 4294967295',
  runsPooledWithDeadline: true,
  // MariaDB max_statement_time (seconds, any statement), MySQL max_execution_time (ms, SELECTs only).
  setStatementTimeout: async (connection, ms) => {
    const whole = Math.max(1, Math.round(ms));
    await mysqlQuery(connection, connection._isMariaDB ? `set session max_statement_time = ${whole / 1000}` : `set session max_execution_time = ${whole}`, []);
    return true;
  },
  cancelStatement: async (db, connection) => {
    if (typeof connection.threadId === 'number') await db.raw(`kill query ${Math.trunc(connection.threadId)}`);
  },
  // A KILL QUERY that arrived as the statement finished would cut the next one on this connection: a no-op takes it.
  afterCancel: async (connection) => void (await mysqlQuery(connection, 'do 0', []).catch(() => undefined)),
  // MariaDB ER_STATEMENT_TIMEOUT, MySQL ER_QUERY_TIMEOUT.
  isStatementTimeout: (error) => [1969, 3024].includes((error as {errno?: number} | undefined)?.errno ?? 0),
  sendsPreparedNative: false,
  cancelsOnTimeout: true,
  rowsOf(result) {
    const first = (result as unknown[])[0];
    // A CALL answers [[rows…], okPacket]; a SELECT answers [rows, fields].
    if (Array.isArray(first) && Array.isArray(first[0])) return first[0] as Row[];
    return Array.isArray(first) ? (first as Row[]) : [];
  },
  async rowEstimates(db) {
    const found = new Map<string, number>();
    const [rows] = (await db.raw(
      `select table_schema as \`schema\`, table_name as name, table_rows as \`rows\` from information_schema.tables where table_type = 'BASE TABLE'`,
    )) as [Array<{schema: string; name: string; rows: number | null}>];
    for (const row of rows) if (row.rows !== null) found.set(`${row.schema}.${row.name}`, Number(row.rows));
    return found;
  },
  async callProcedure(db, procedure, args, send) {
    // CALL; `out` parameters read back from session variables as one row.
    const name = `${procedure.schema}.${procedure.dbName}`;
    const outs = procedure.params.filter((param) => param.mode === 'out');
    const marks = procedure.params.map((param) => (param.mode === 'out' ? `@wb_out_${outs.indexOf(param)}` : '?')).join(', ');
    const values = procedure.params.filter((param) => param.mode !== 'out').map((param) => args[param.name] ?? null);
    const rows = await send(db.raw(`call ??(${marks})`, [name, ...values] as never[]));
    if (outs.length === 0) return rows;
    const select = outs.map((param, index) => `@wb_out_${index} as ??`).join(', ');
    return send(
      db.raw(
        `select ${select}`,
        outs.map((param) => param.name),
      ),
    );
  },

  maxBindings: 30_000,
  affectedRows: (result) => (result as Array<{affectedRows?: number}>)[0]?.affectedRows ?? 0,
  returnedRows: (result) => (Array.isArray(result) ? (result as Row[]) : []),
  insertAnswersInsertId: true,
  upsert(db, upsert, guardOn) {
    // ON DUPLICATE KEY UPDATE has no WHERE: each assignment is guarded by the policy instead.
    const columns = Object.keys(upsert.row);
    const values = columns.map((column) => upsert.row[column]);
    const guard = guardOn(upsert.alias);
    const setColumns = upsertSetColumns(upsert);
    const assignments = setColumns.map((column) => {
      const value = column in upsert.set ? '?' : '??';
      return guard ? `?? = if(${guard.sql}, ${value}, ??)` : `?? = ${value}`;
    });
    const assignmentBindings = setColumns.flatMap((column) => {
      const value = column in upsert.set ? upsert.set[column] : column;
      return guard ? [column, ...guard.bindings, value, column] : [column, value];
    });
    const sql = `insert into ?? (${list(columns.length, '??')}) values (${list(columns.length, '?')}) on duplicate key update ${assignments.join(', ')}`;
    return db.raw(sql, [upsert.ref, ...columns, ...values, ...assignmentBindings] as Knex.RawBinding[]);
  },
  // A guarded no-op is reported like a write: the caller reads the row back to tell which it was.
  upsertReturnsWrittenKey: false,
  storesDatesAsText: false,
  lockForUpdate: (qb) => qb.forUpdate(),
  // SKIP LOCKED is MariaDB 10.6+'s (and MySQL 8's).
  lockSkippingLocked: (qb) => qb.forUpdate().skipLocked(),
  // BOOLEAN is tinyint(1).
  storedBoolean: (value) => (value ? 1 : 0),
  // Each DDL statement commits the transaction it is in.
  transactionalDdl: false,
  setBasedBatches: true,
  setBasedBatchesCaptureEvents: true,
  stagingTable: (suffix) => `wb_stage_${suffix}`,
  createStagingTable: (db, stage, columns, ref) =>
    db.raw(`create temporary table ?? as select ${columns.map(() => '??').join(', ')} from ?? where 1 = 0`, [stage, ...columns, ref]),
  afterStaging: () => undefined,
  updateFromStaging(db, {ref, alias, stage, keys, setColumns, guard}) {
    const on = keys.map(() => '??.?? = wb_s.??').join(' and ');
    const where = guard ? ` where ${guard.sql}` : '';
    const sql = `update ?? as ?? join ?? as wb_s on ${on} set ${setColumns.map(() => '??.?? = wb_s.??').join(', ')}${where}`;
    const bindings = [ref, alias, stage, ...keys.flatMap((key) => [alias, key, key]), ...setColumns.flatMap((column) => [alias, column, column]), ...(guard?.bindings ?? [])];
    return db.raw(sql, bindings as Knex.RawBinding[]);
  },
  dropStagingTable: (db, stage) => db.raw('drop temporary table ??', [stage]),
  insertReturningAll(db, insert) {
    // MariaDB's INSERT … RETURNING (10.5+), written onto knex's insert.
    const compiled = insert.toSQL();
    return {
      statement: db.raw(`${compiled.sql} returning *`, compiled.bindings as Knex.RawBinding[]),
      rows: (result) => (Array.isArray(result) ? result[0] : []) as Row[],
    };
  },
};
