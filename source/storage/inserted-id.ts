import type {Knex} from 'knex';
import type {Dialect} from './connection.js';

/** Inserts one row and answers its id: PostgreSQL and SQLite by RETURNING, MySQL by its insert id. */
export async function insertReturningId(db: Knex, dialect: Dialect, table: string, row: Record<string, unknown>): Promise<number> {
  if (dialect === 'mysql') {
    const [id] = (await db(table).insert(row)) as number[];
    return Number(id);
  }
  const [first] = (await db(table).insert(row, ['id'])) as {id: unknown}[];
  return Number(first?.id);
}
