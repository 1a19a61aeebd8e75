import {z} from 'zod';
import {textCommand} from '../source/cli/command-output.js';

export const description = 'Serve the workbench tools to an editor over MCP (stdio)';

export const options = z.object({
  daemon: z.boolean().default(true).describe('Use the daemon (--no-daemon: legacy mode, proxy errors only)'),
});

// The entry point serves MCP before pastel loads (stdout belongs to the protocol); this file gives it a help line.
export default textCommand(async () => ({stderr: 'run it as `workbench mcp`\n', exitCode: 2}));
