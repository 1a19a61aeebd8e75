import {textCommand} from '../../source/cli/command-output.js';

export const description = 'The feed reader’s settings: password (the Google Reader API password clients such as newsboat sign in with)';

// A group needs a default; it names the choices.
export default textCommand(async () => ({
  stderr: 'name a setting: `workbench reader password` (see `workbench reader --help`); `workbench serve reader` runs the reader\n',
  exitCode: 1,
}));
