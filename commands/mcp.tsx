import React from 'react';
import {z} from 'zod';
import {CommandOutput} from '../source/cli/command-output.js';

export const description = 'Serve the workbench tools to an editor over MCP (stdio)';

export const options = z.object({
  daemon: z.boolean().default(true).describe('Use the daemon (--no-daemon: legacy mode, proxy errors only)'),
});

export default function Mcp() {
  // The entry point serves MCP before pastel is loaded (stdout belongs to the protocol); this file gives it a help line.
  return <CommandOutput task={async () => ({stderr: 'run it as `workbench mcp`\n', exitCode: 2})} />;
}
