import {textCommand} from '../../source/cli/command-output.js';

export const description = 'Run one of workbench’s servers in the foreground: reader, gateway, graphql';

// A group needs a default; serving nothing is no useful default, so it names the choices.
export default textCommand(async () => ({
  stderr: 'name a server: `workbench serve reader`, `workbench serve gateway` or `workbench serve graphql` (see `workbench serve --help`)\n',
  exitCode: 1,
}));
