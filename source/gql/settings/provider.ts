import type {Provider} from '../types.js';

// The spec's four names, and the spellings people also write for them.
const ALIASES: Record<string, Provider> = {
  sqlserver: 'sqlserver',
  mssql: 'sqlserver',
  postgres: 'postgres',
  postgresql: 'postgres',
  pg: 'postgres',
  mysql: 'mysql',
  mariadb: 'mysql',
  sqlite: 'sqlite',
};

/** The provider a settings value names (case-insensitive), or undefined. */
export function parseProvider(text: string): Provider | undefined {
  return ALIASES[text.trim().toLowerCase()];
}
