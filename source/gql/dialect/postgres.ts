import type {Knex} from 'knex';
import type {GqlTable, Row} from '../types.js';
import type {Dialect, JsonPair} from './dialect.js';
import {jsonCall, onConflictUpsert, quoteDouble, windowedRows} from './sql-text.js';

// PostgreSQL functions take at most 100 arguments: wider objects are built in pieces and joined as jsonb.
const PAIRS_PER_CALL = 50;
// A table the catalogue has no figure for is counted up to this many rows; beyond, it is left unknown.
const COUNT_BOUND = 100_000;

function jsonObject(db: Knex, pairs: JsonPair[]): Knex.Raw {
  if (pairs.length <= PAIRS_PER_CALL) {
    const one = jsonCall('json_build_object', pairs);
    return db.raw(one.sql, one.bindings as Knex.RawBinding[]);
  }
  const chunks: Array<{sql: string; bindings: unknown[]}> = [];
  for (let start = 0; start < pairs.length; start += PAIRS_PER_CALL) chunks.push(jsonCall('jsonb_build_object', pairs.slice(start, start + PAIRS_PER_CALL)));
  return db.raw(`(${chunks.map((chunk) => chunk.sql).join(' || ')})::json`, chunks.flatMap((chunk) => chunk.bindings) as Knex.RawBinding[]);
}

/** `reltuples` of every table; a table never vacuumed or analysed (-1) counted, up to a bound. */
async function rowEstimates(db: Knex, tables: readonly GqlTable[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const result = await db.raw(
    `select n.nspname as schema, c.relname as name, c.reltuples as rows from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind in ('r', 'p', 'm')`,
  );
  const never: string[] = [];
  for (const row of (result as {rows: Array<{schema: string; name: string; rows: number}>}).rows) {
    const key = `${row.schema}.${row.name}`;
    // -1: never vacuumed or analysed (a table just made and filled): counted, up to a bound.
    if (Number(row.rows) >= 0) found.set(key, Math.ceil(Number(row.rows)));
    else never.push(key);
  }
  for (const table of tables.filter((each) => never.includes(each.key))) {
    const counted = await db.raw(`select count(*)::int as n from (select 1 from ${quoteDouble(table.schema)}.${quoteDouble(table.dbName)} limit ${COUNT_BOUND + 1}) rows`);
    const n = Number((counted as {rows: Array<{n: number}>}).rows[0]?.n ?? 0);
    if (n <= COUNT_BOUND) found.set(table.key, n);
  }
  return found;
}

/** PostgreSQL (the `pg` driver). */
export const postgres: Dialect = {
  provider: 'postgres',
  quoteIdentifier: quoteDouble,
  qualifiedName: (schema, name) => (schema ? `${schema}.${name}` : name),
  quotedTableName: (schema, name) => `${quoteDouble(schema)}.${quoteDouble(name)}`,

  jsonObject,
  embeddedJson: '?',
  jsonArrayAgg(db, list) {
    const rows = windowedRows(db, list);
    const inner = list.innerAlias();
    return db.raw(`(select coalesce(json_agg(??), '[]'::json) from ? as ??)`, [`${inner}.j`, rows, inner]);
  },
  exactNumberAsText: '??::text',
  bytesAsHex: `encode(??, 'hex')`,
  servesAttributes: true,
  attributeObjectAgg: (db, {rows, keyRef, valueRef, valueSql}) =>
    rows.select(db.raw(`coalesce(json_object_agg(??, ${valueSql} order by ??), '{}'::json)`, [keyRef, valueRef, keyRef])),
  attributeListAgg: (db, {rows, keyRef, valueRef, valueSql}) =>
    rows.select(db.raw(`coalesce(json_agg(json_build_object('key', ??, 'value', ${valueSql}) order by ??, ??), '[]'::json)`, [keyRef, valueRef, keyRef, valueRef])),

  // A backslash escapes LIKE by default.
  whereLikeEscaped: (qb, ref, pattern) => void qb.where(ref, 'like', pattern),

  pooled: true,
  runsPooledWithDeadline: true,
  setStatementTimeout: async (connection, ms) => {
    await (connection.query(`set statement_timeout = ${wholeMs(ms)}`) as Promise<unknown>);
    return true;
  },
  cancelStatement: async (db, connection) => {
    if (typeof connection.processID === 'number') await db.raw('select pg_cancel_backend(?)', [connection.processID]);
  },
  afterCancel: async () => undefined,
  // query_canceled is also a cancel's code: the words tell the deadline.
  isStatementTimeout: (error) => errorOf(error).code === '57014' && /statement timeout/.test(String(errorOf(error).message ?? '')),
  sendsPreparedNative: true,
  cancelsOnTimeout: true,
  rowsOf: (result) => ((result as {rows?: Row[]}).rows ?? []) as Row[],
  rowEstimates,
  async callProcedure(db, procedure, args, send) {
    // `select * from fn(…)`; a procedure, which refuses that, is CALLed.
    const name = `${procedure.schema}.${procedure.dbName}`;
    const values = procedure.params.filter((param) => param.mode !== 'out').map((param) => args[param.name] ?? null);
    const marks = values.map(() => '?').join(', ');
    try {
      return await send(db.raw(`select * from ??(${marks})`, [name, ...values] as never[]));
    } catch (error) {
      // 42809: "… is a procedure": CALL it (out parameters come back as its one row).
      if ((error as {code?: unknown}).code !== '42809') throw error;
      const all = procedure.params.map((param) => (param.mode === 'out' ? 'null' : '?')).join(', ');
      return send(db.raw(`call ??(${all})`, [name, ...values] as never[]));
    }
  },

  maxBindings: 30_000,
  affectedRows: (result) => (result as {rowCount?: number}).rowCount ?? 0,
  returnedRows: (result) => (Array.isArray(result) ? (result as Row[]) : (((result as {rows?: Row[]}).rows ?? []) as Row[])),
  insertAnswersInsertId: false,
  upsert: onConflictUpsert,
  upsertReturnsWrittenKey: true,
  storesDatesAsText: false,
  lockForUpdate: (qb) => qb.forUpdate(),
  lockSkippingLocked: (qb) => qb.forUpdate().skipLocked(),
  storedBoolean: (value) => value,
  transactionalDdl: true,
  setBasedBatches: true,
  setBasedBatchesCaptureEvents: true,
  stagingTable: (suffix) => `wb_stage_${suffix}`,
  createStagingTable: (db, stage, columns, ref) =>
    db.raw(`create temporary table ?? on commit drop as select ${columns.map(() => '??').join(', ')} from ?? where 1 = 0`, [stage, ...columns, ref]),
  // A freshly filled temporary table has no statistics: without them PostgreSQL may pick a nested loop for the join.
  afterStaging: (db, stage) => db.raw('analyze ??', [stage]),
  updateFromStaging(db, {ref, alias, stage, keys, setColumns, guard}) {
    const on = keys.map(() => '??.?? = wb_s.??').join(' and ');
    const sql = `update ?? as ?? set ${setColumns.map(() => '?? = wb_s.??').join(', ')} from ?? as wb_s where ${on}${guard ? ` and ${guard.sql}` : ''}`;
    const bindings = [ref, alias, ...setColumns.flatMap((column) => [column, column]), stage, ...keys.flatMap((key) => [alias, key, key]), ...(guard?.bindings ?? [])];
    return db.raw(sql, bindings as Knex.RawBinding[]);
  },
  // `on commit drop`: the transaction's end drops it.
  dropStagingTable: () => undefined,
  insertReturningAll: (db, insert) => ({statement: insert.returning('*'), rows: (result) => result as Row[]}),
};

function wholeMs(ms: number): number {
  return Math.max(1, Math.round(ms));
}

function errorOf(error: unknown): {code?: unknown; message?: unknown} {
  return (error ?? {}) as {code?: unknown; message?: unknown};
}
