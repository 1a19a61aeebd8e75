import {WorkbenchError} from '../../source/core/errors.js';
import {serverLogPath} from '../../source/core/paths.js';
import {parseHost, parsePort, parsePublicUrl, serve} from '../kit/index.js';
import {tuneGatewayProcess} from './process-tuning.js';
import {startGatewayServer} from './start-server.js';

export interface GatewayFlags {
  host: string;
  port: string;
  db?: string;
  config?: string;
  publicUrl?: string;
}

/**
 * `workbench serve gateway`: the gateway in the foreground, announced in
 * `WORKBENCH_HOME/services/gateway.json`, logging to `WORKBENCH_HOME/logs/gateway.log`, until
 * SIGINT/SIGTERM. Feeds come from `--config` or the working directory's `.workbench.kdl`; the
 * refresh webhook's secret from REFRESH_TOKEN.
 */
export async function runGatewayServer(flags: GatewayFlags): Promise<{stderr: string}> {
  const port = parsePort(flags.port);
  const host = parseHost(flags.host);
  if (flags.db !== undefined && !flags.db.trim()) throw new WorkbenchError('invalid_argument', '--db is empty');
  if (flags.config !== undefined && !flags.config.trim()) throw new WorkbenchError('invalid_argument', '--config is empty');
  const publicUrl = flags.publicUrl === undefined ? undefined : parsePublicUrl(flags.publicUrl, 'https://feeds.example.org');

  const logFile = serverLogPath('gateway');
  tuneGatewayProcess();
  const reason = await serve({
    name: 'gateway',
    host,
    healthPath: '/health',
    logFile,
    details: {db: flags.db ?? null, ...(publicUrl ? {publicUrl} : {})},
    start: () => startGatewayServer({host, port, db: flags.db, configFile: flags.config, publicUrl, logFile}),
  });
  return {stderr: `gateway stopped (${reason})\n`};
}
