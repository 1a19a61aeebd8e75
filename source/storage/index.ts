// Storage every server shares: knex over SQLite (each server's own file under WORKBENCH_HOME by
// default), PostgreSQL or MySQL/MariaDB by URL, migrated on open; BIGINT millisecond times.
export {openDatabase, type Store, type OpenDatabaseOptions} from './open-database.js';
export {databaseConfig, type Dialect, type StoreConfig} from './connection.js';
export {loadKnex, type KnexFactory} from './load-knex.js';
export {insertReturningId} from './inserted-id.js';
export {isUniqueViolation} from './unique-violation.js';
export {millis, iso, isoOrNull, flag} from './time.js';
export {exact, migrationSource, type Migration} from './migrations.js';
export {prepareSqliteFile} from './sqlite-file.js';
export {selectRows} from './sqlite-rows.js';
export {isDamagedDatabase, damagedDatabaseError} from './damaged.js';
export {knexLog} from './knex-log.js';
