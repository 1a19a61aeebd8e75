import React from 'react';
import {CommandOutput} from '../source/cli/command-output.js';

export const description = 'Open the TUI on the bundled demo project: live processes and incidents in seconds';

export default function Demo() {
  // The entry point opens the TUI before pastel is loaded; this file gives it a help line.
  return <CommandOutput task={async () => ({stderr: 'run it as `workbench demo`\n', exitCode: 2})} />;
}
