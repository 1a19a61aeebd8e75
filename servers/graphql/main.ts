import {WorkbenchError} from '../../source/core/errors.js';
import {serverLogPath} from '../../source/core/paths.js';
import {requireJwtSettings} from '../../source/gql/auth/index.js';
import {parseConnectionString} from '../../source/gql/settings/connection-string.js';
import {emptySchemaHint} from '../../source/gql/schema/empty-schema.js';
import {loadGqlSettings} from '../../source/gql/settings/load-settings.js';
import type {GqlSettings} from '../../source/gql/types.js';
import {parseHost, parsePort, serve} from '../kit/index.js';
import {HEALTH_PATH} from './routes/health.js';
import {startGraphqlServer, type ServableService} from './start-server.js';

export interface GraphqlFlags {
  host: string;
  port: string;
  settings?: string;
}

/** Opens the service for the settings (source/gql/service.ts's openGqlService). */
export type OpenService = (settings: GqlSettings) => Promise<ServableService>;

/**
 * `workbench serve graphql`: the settings read (`--settings`, else ./appsettings.json, else the
 * embedded SQLite default; GqlService__* variables over them), the service opened (the model read
 * from the live database: a model with problems stops here, listing them), then served in the
 * foreground, announced in `WORKBENCH_HOME/services/graphql.json` with its settings file — so
 * `gql query` with the same settings uses it — logging to `WORKBENCH_HOME/logs/graphql.log`.
 */
export async function runGraphqlServer(flags: GraphqlFlags, open: OpenService): Promise<{stderr: string}> {
  const port = parsePort(flags.port);
  const host = parseHost(flags.host);
  if (flags.settings !== undefined && !flags.settings.trim()) throw new WorkbenchError('invalid_argument', '--settings is empty');
  const settings = loadGqlSettings({file: flags.settings});
  // Before the database is opened: a server that checks tokens needs to know whose.
  if (!settings.disableAuth) requireJwtSettings(settings);
  // TrustServerCertificate=True and the like: said at start, for as long as the server runs on them (the log has them too).
  const connectionWarnings = parseConnectionString(settings.provider, settings.connectionString).warnings;
  for (const warning of connectionWarnings) process.stderr.write(`warning: ${warning}\n`);
  const logFile = serverLogPath('graphql');
  const reason = await serve({
    name: 'graphql',
    host,
    healthPath: HEALTH_PATH,
    logFile,
    details: {settings: settings.source, path: settings.path, playground: settings.playground, auth: !settings.disableAuth},
    start: async () => {
      const service = await open(settings);
      // An empty database serves a schema with nothing in it: said at start, with how to fill it.
      const hint = emptySchemaHint(service.schema);
      if (hint) process.stderr.write(`warning: ${hint}\n`);
      try {
        const server = await startGraphqlServer({service, host, port, logFile});
        for (const warning of connectionWarnings) server.app.log.warn(warning);
        if (server.http3) {
          // Browsers do not trust the local certificate: its SPKI hash lets Chromium accept it (--ignore-certificate-errors-spki-list).
          process.stderr.write(`graphql also on ${server.http3.url} (HTTP/1.1, HTTP/2, HTTP/3 through Caddy; certificate SPKI sha256 ${server.http3.spkiHash})\n`);
        }
        return server;
      } catch (error) {
        await service.close().catch(() => {});
        throw error;
      }
    },
  });
  return {stderr: `graphql stopped (${reason})\n`};
}
