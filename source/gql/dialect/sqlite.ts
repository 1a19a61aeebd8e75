import type {Knex} from 'knex';
import {WorkbenchError} from '../../core/errors.js';
import type {Row} from '../types.js';
import type {Dialect} from './dialect.js';
import {jsonCall, notOn, onConflictUpsert, quoteDouble, windowedRows} from './sql-text.js';

// The set-based batch path is not SQLite's: one in-process writer has no round trips to save.
const noSetBasedPath = () => notOn('SQLite', 'the set-based batch');

/** SQLite (better-sqlite3): one file, no schemas, no date type, runs on this thread. */
export const sqlite: Dialect = {
  provider: 'sqlite',
  // knex would quote `main.table` as one name.
  quoteIdentifier: quoteDouble,
  qualifiedName: (_schema, name) => name,
  // `main` is the database a bare name means; an attached one is written.
  quotedTableName: (schema, name) => (schema === 'main' ? quoteDouble(name) : `${quoteDouble(schema)}.${quoteDouble(name)}`),

  jsonObject(db, pairs) {
    if (pairs.length === 0) return db.raw('json_object()');
    const one = jsonCall('json_object', pairs);
    return db.raw(one.sql, one.bindings as Knex.RawBinding[]);
  },
  // A subquery's JSON comes back as text: json() keeps it JSON inside the object.
  embeddedJson: 'json(?)',
  jsonArrayAgg(db, list) {
    const rows = windowedRows(db, list);
    const inner = list.innerAlias();
    return db.raw(`(select json_group_array(json(??)) from ? as ??)`, [`${inner}.j`, rows, inner]);
  },
  exactNumberAsText: 'cast(?? as text)',
  bytesAsHex: 'lower(hex(??))',
  servesAttributes: true,
  attributeObjectAgg: (db, {rows, keyRef, valueRef, valueSql}) => rows.select(db.raw(`json_group_object(??, ${valueSql})`, [keyRef, valueRef])),
  attributeListAgg(db, {rows, keyRef, valueRef, valueSql, innerAlias}) {
    // SQLite aggregates in the order its input comes: an ordered derived table.
    rows.select(db.raw(`json_object('key', ??, 'value', ${valueSql}) as j`, [keyRef, valueRef])).orderBy([keyRef, valueRef]);
    const inner = innerAlias();
    return db.raw(`(select json_group_array(json(??)) from ? as ??)`, [`${inner}.j`, rows, inner]);
  },

  // LIKE has no escape character unless one is named.
  whereLikeEscaped: (qb, ref, pattern) => void qb.whereRaw(`?? like ? escape '\\'`, [ref, pattern]),

  pooled: false,
  runsPooledWithDeadline: false,
  // No session deadline here: SQLite's reads are cut by ending their reader process, SQL Server's by knex's timeout with cancel.
  setStatementTimeout: async () => false,
  cancelStatement: async () => undefined,
  afterCancel: async () => undefined,
  isStatementTimeout: () => false,
  sendsPreparedNative: false,
  // It runs on this thread and cannot be interrupted: the cost limit bounds it (cost.ts).
  cancelsOnTimeout: false,
  rowsOf: (result) => (Array.isArray(result) ? (result as Row[]) : []),
  async rowEstimates(db, tables) {
    // The largest rowid: one index probe.
    const found = new Map<string, number>();
    for (const table of tables) {
      try {
        const rows = (await db.raw(`select max(rowid) as n from ${quoteDouble(table.dbName)}`)) as Array<{n: number | null}>;
        found.set(table.key, Math.max(0, Number(rows[0]?.n ?? 0)));
      } catch {
        // A view or a WITHOUT ROWID table: unknown.
      }
    }
    return found;
  },
  callProcedure: async (_db, procedure) => {
    throw new WorkbenchError('invalid_argument', `${procedure.name}: SQLite has no stored procedures`);
  },

  maxBindings: 900,
  affectedRows: (result) => (Array.isArray(result) ? result.length : Number(result ?? 0)),
  returnedRows: (result) => (Array.isArray(result) ? (result as Row[]) : []),
  insertAnswersInsertId: false,
  upsert: onConflictUpsert,
  upsertReturnsWrittenKey: true,
  // No date type: ISO text sorts and reads back as written (knex would bind a Date as epoch milliseconds).
  storesDatesAsText: true,
  // One writer holds the whole database for the transaction: there is nothing to lock against.
  lockForUpdate: (qb) => qb,
  lockSkippingLocked: (qb) => qb,
  // No boolean type: 0 and 1.
  storedBoolean: (value) => (value ? 1 : 0),
  transactionalDdl: true,
  setBasedBatches: false,
  setBasedBatchesCaptureEvents: false,
  stagingTable: noSetBasedPath,
  createStagingTable: noSetBasedPath,
  afterStaging: noSetBasedPath,
  updateFromStaging: noSetBasedPath,
  dropStagingTable: noSetBasedPath,
  insertReturningAll: noSetBasedPath,
};
