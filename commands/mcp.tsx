import {z} from 'zod';
import {textCommand} from '../source/cli/command-output.js';

export const description = 'Serve the workbench tools to an editor over MCP (stdio, or Streamable HTTP with --http)';

export const options = z.object({
  daemon: z.boolean().default(true).describe('Use the daemon (--no-daemon: legacy mode, proxy errors only; stdio only)'),
  http: z.boolean().default(false).describe('Serve MCP over Streamable HTTP at http://HOST:PORT/mcp instead of stdio; several clients share the one daemon'),
  host: z.string().default('127.0.0.1').describe('--http: the address to listen on (beyond loopback only with --token)'),
  port: z.number().int().default(7451).describe('--http: the port (0: any free one; the URL is printed on stdout)'),
  token: z.boolean().default(false).describe('--http: clients must send Authorization: Bearer <token> ($WORKBENCH_MCP_TOKEN, else one made and kept 0600 in the workbench home)'),
});

// The entry point serves MCP before pastel loads (stdout belongs to the protocol); this file gives it a help line.
export default textCommand(async () => ({stderr: 'run it as `workbench mcp`\n', exitCode: 2}));
