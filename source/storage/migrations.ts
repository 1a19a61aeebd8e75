import type {Knex} from 'knex';
import type {Dialect} from './connection.js';

/** One step of a server's schema, written once for every dialect. */
export interface Migration {
  name: string;
  up(db: Knex, dialect: Dialect): Promise<void>;
  down(db: Knex, dialect: Dialect): Promise<void>;
}

/** MySQL/MariaDB compare strings case- and accent-insensitively by default; ids, keys, hashes and tokens must compare byte for byte. */
export function exact(column: Knex.ColumnBuilder, dialect: Dialect): Knex.ColumnBuilder {
  return dialect === 'mysql' ? column.collate('utf8mb4_bin') : column;
}

/** knex's migration source interface over a list of migrations, for migrate.latest(). */
export function migrationSource(migrations: Migration[], dialect: Dialect): Knex.MigrationSource<Migration> {
  return {
    getMigrations: async () => migrations,
    getMigrationName: (migration) => migration.name,
    getMigration: async (migration) => ({
      up: (db: Knex) => migration.up(db, dialect),
      down: (db: Knex) => migration.down(db, dialect),
    }),
  };
}
