import {parseArgs} from 'node:util';

/** The port `workbench mcp --http` listens on unless told: fixed, so an editor's configuration can name it. */
export const DEFAULT_MCP_PORT = 7451;

export interface McpArgs {
  http: boolean;
  host: string;
  port: number;
  token: boolean;
  noDaemon: boolean;
}

/** `workbench mcp [--no-daemon] [--http [--host H] [--port N] [--token]]`; a mistake throws one line. */
export function parseMcpArgs(argv: string[]): McpArgs {
  const {values} = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {http: {type: 'boolean'}, host: {type: 'string'}, port: {type: 'string'}, token: {type: 'boolean'}, 'no-daemon': {type: 'boolean'}, daemon: {type: 'boolean'}},
  });
  const http = values.http === true;
  if (!http && (values.host !== undefined || values.port !== undefined || values.token)) throw new Error('--host, --port and --token go with --http');
  if (http && values['no-daemon']) throw new Error('--http needs the daemon (it is what several clients share): leave out --no-daemon');
  const port = values.port === undefined ? DEFAULT_MCP_PORT : Number(values.port);
  if (!/^\d{1,5}$/.test(values.port ?? '0') || !Number.isInteger(port) || port > 65_535)
    throw new Error(`--port must be a whole number from 0 to 65535, not ${JSON.stringify(values.port)}`);
  const host = values.host ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:_-]{1,253}$/.test(host)) throw new Error(`--host must be an address or a name, not ${JSON.stringify(host.slice(0, 60))}`);
  const loopback = host === 'localhost' || host === '::1' || host.startsWith('127.');
  if (!loopback && !values.token) throw new Error(`--host ${host} reaches beyond this machine: add --token so only clients with the token get in`);
  return {http, host, port, token: values.token === true, noDaemon: values['no-daemon'] === true};
}
