import type {Knex} from 'knex';
import {dialectOf} from '../dialect/dialect-of.js';
import type {Row} from '../types.js';
import type {PreparedWrite, WriteScope} from './prepare.js';
import {applyRowPolicy} from '../policy/row-policy.js';
import {runStatement, type WriteRunner} from './statements.js';
import {upsertStatement} from './upsert-sql.js';

/** What one write did: rows it changed, and the key of the row when there is one to report. */
export interface WriteOutcome {
  affected: number;
  key?: Row;
  /** The whole row as written, when asked for and the database hands it back with the write (RETURNING). */
  row?: Row;
}

export interface WriteOptions {
  /** Hand back the written row with an insert where the database can (PostgreSQL, SQLite: RETURNING *), saving a read. */
  returnRow?: boolean;
}

function whereKey(qb: Knex.QueryBuilder, scope: WriteScope, key: Row): Knex.QueryBuilder {
  for (const [column, value] of Object.entries(key)) qb.where(`${scope.alias}.${column}`, value as Knex.Value);
  return qb;
}

async function insertOne(runner: WriteRunner, scope: WriteScope, row: Row, known: Row | undefined, returnRow = false): Promise<WriteOutcome> {
  const {table, model} = scope;
  const query = runner.trx(scope.ref).insert(row);
  if (dialectOf(model.provider).insertAnswersInsertId) {
    const [insertId] = await runStatement<number[]>(runner, query);
    if (known) return {affected: 1, key: known};
    return table.primaryKey.length === 1 ? {affected: 1, key: {[table.primaryKey[0] as string]: insertId}} : {affected: 1};
  }
  if (returnRow) {
    const [written] = await runStatement<Row[]>(runner, query.returning('*'));
    return {affected: 1, key: known ?? keyColumns(table.primaryKey, written!), row: written};
  }
  const rows = await runStatement<Row[]>(runner, query.returning(table.primaryKey));
  return {affected: 1, key: known ?? rows[0]};
}

function keyColumns(columns: string[], row: Row): Row {
  const key: Row = {};
  for (const column of columns) key[column] = row[column];
  return key;
}

/** Runs one prepared write in the runner's transaction, inside the row policy of its operation. */
export async function executeWrite(runner: WriteRunner, scope: WriteScope, write: PreparedWrite, options: WriteOptions = {}): Promise<WriteOutcome> {
  const {trx} = runner;
  switch (write.op) {
    case 'insert':
      return insertOne(runner, scope, write.row, write.key, options.returnRow);
    case 'update':
    case 'soft-delete': {
      const policy = scope.policy(write.op === 'update' ? 'update' : 'delete');
      const query = whereKey(trx(scope.ref), scope, write.key)
        .where((qb) => applyRowPolicy(qb, policy, scope.alias))
        .update(write.set);
      const affected = await runStatement<number>(runner, query);
      return affected > 0 ? {affected, key: write.key} : {affected};
    }
    case 'delete': {
      const query = whereKey(trx(scope.ref), scope, write.key)
        .where((qb) => applyRowPolicy(qb, scope.policy('delete'), scope.alias))
        .del();
      return {affected: await runStatement<number>(runner, query)};
    }
    case 'upsert': {
      // Without a key (an identity the database fills) nothing can conflict: a plain insert.
      if (!write.key) return insertOne(runner, scope, write.row, undefined, options.returnRow);
      const provider = scope.model.provider;
      const dialect = dialectOf(provider);
      const policy = scope.policy('update');
      const spec = {ref: scope.ref, alias: scope.alias, row: write.row, keyColumns: scope.table.primaryKey, set: write.set, policy};
      const result = await runStatement(runner, upsertStatement(trx, provider, spec));
      if (dialect.upsertReturnsWrittenKey) return dialect.returnedRows(result).length > 0 ? {affected: 1, key: write.key} : {affected: 0};
      // MySQL reports a guarded no-op like a write: whether the row is now the user's says which it was.
      const visible = whereKey(trx(scope.ref), scope, write.key)
        .where((qb) => applyRowPolicy(qb, policy, scope.alias))
        .first(trx.raw('1 as found'));
      return (await runStatement<Row | undefined>(runner, visible)) ? {affected: 1, key: write.key} : {affected: 0};
    }
  }
}
