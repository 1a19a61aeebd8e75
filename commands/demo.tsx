import {textCommand} from '../source/cli/command-output.js';

export const description = 'Open the TUI on the bundled demo project: live processes and incidents in seconds';

// The entry point opens the TUI before pastel loads; this file gives it a help line.
export default textCommand(async () => ({stderr: 'run it as `workbench demo`\n', exitCode: 2}));
