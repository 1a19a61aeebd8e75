import {join} from 'node:path';
import {workbenchHome} from '../../core/paths.js';
import {openDatabase, type Store} from '../../storage/index.js';
import {gatewayMigrations} from './migrations.js';

/** The SQLite file used when no connection is given. */
export function defaultGatewayDatabase(): string {
  return join(workbenchHome(), 'gateway.sqlite');
}

/** Opens (and migrates) the gateway's database: nothing → `<WORKBENCH_HOME>/gateway.sqlite`; a postgres:// or mysql:// URL → that server. */
export function openGatewayStore(connection?: string): Promise<Store> {
  return openDatabase({connection, defaultFile: defaultGatewayDatabase(), migrations: gatewayMigrations, migrationsTable: 'gateway_migrations', what: 'gateway'});
}
