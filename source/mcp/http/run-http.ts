import {describeError} from '../../core/errors.js';
import {loadOrCreateToken, TOKEN_VARIABLE} from './bearer-token.js';
import {startMcpHttpServer} from './http-server.js';
import type {McpArgs} from './mcp-args.js';

/** `workbench mcp --http`: serves until SIGINT/SIGTERM; the address on stdout, the rest on stderr. */
export async function runMcpHttp(args: McpArgs, cwd = process.cwd()): Promise<void> {
  const log = (message: string) => process.stderr.write(`workbench mcp: ${message}\n`);
  let token: string | undefined;
  if (args.token) {
    const loaded = loadOrCreateToken();
    token = loaded.token;
    log(
      loaded.source === TOKEN_VARIABLE ? `clients must send Authorization: Bearer $${TOKEN_VARIABLE}` : `clients must send Authorization: Bearer <the token in ${loaded.source}>`,
    );
  }
  let server;
  try {
    server = await startMcpHttpServer({host: args.host, port: args.port, cwd, token, log});
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE'
        ? `port ${args.port} on ${args.host} is in use (--port N for another, --port 0 for any free one)`
        : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
          ? `${args.host} is not an address of this machine`
          : describeError(error);
    log(`cannot listen: ${reason}`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`${server.url}\n`);
  log(`serving MCP over Streamable HTTP at ${server.url}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
}
