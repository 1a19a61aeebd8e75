import React from 'react';
import {CommandOutput} from '../../source/cli/command-output.js';

export const description = 'Run the daemon in the foreground (what `daemon start` runs in the background)';

export default function DaemonRun() {
  // The entry point runs the daemon before pastel is loaded; this file gives it a help line.
  return <CommandOutput task={async () => ({stderr: 'run it as `workbench daemon run`\n', exitCode: 2})} />;
}
