import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';

export const description =
  'Set the API password Google Reader clients (newsboat, NetNewsWire, Reeder) sign in with: asked twice on a terminal, one line from stdin otherwise, or --generate';

export const options = z.object({
  user: z
    .string()
    .optional()
    .describe(option({description: 'The user name clients sign in as (default: your login name)', valueDescription: 'name'})),
  generate: z.boolean().default(false).describe('Make a random password (128 bits) and print it once'),
  db: z
    .string()
    .optional()
    .describe(option({description: 'The store (default: the one the running reader uses, else SQLite in WORKBENCH_HOME)', valueDescription: 'path|url'})),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(async ({options: flags}) => {
  const {setReaderPassword} = await import('../../source/cli/reader/password-task.js');
  return setReaderPassword(flags);
});
