import {textCommand} from '../../source/cli/command-output.js';

export const description = 'Run the daemon in the foreground (what `daemon start` runs in the background)';

// The entry point runs the daemon before pastel loads; this file gives it a help line.
export default textCommand(async () => ({stderr: 'run it as `workbench daemon run`\n', exitCode: 2}));
