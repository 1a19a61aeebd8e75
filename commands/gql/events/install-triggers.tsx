import {z} from 'zod';
import {textCommand} from '../../../source/cli/command-output.js';
import {rawFlag, settingsFlag} from '../../../source/cli/gql/gql-flags.js';

export const description =
  'Install database triggers that write change events for writes made directly in SQL by other programs (PostgreSQL, MariaDB, SQLite); the service then leaves those tables to them';

export const options = z.object({
  ...settingsFlag,
  print: z.boolean().default(false).describe('Show the SQL, run nothing (for a DBA to review or run)'),
  uninstall: z.boolean().default(false).describe('Drop the triggers (the service captures its own writes again)'),
  ...rawFlag,
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {installTriggers} = await import('../../../source/gql/events/triggers/install.js');
    const {data, json, text} = await import('../../../source/cli/command-result.js');
    const result = await installTriggers({file: flags.settings, print: flags.print, uninstall: flags.uninstall});
    if (flags.raw) return json(result);
    // Each statement ends with `;` on a line of its own, so psql, mysql and sqlite3 can run the output as it is.
    if (flags.print) return data(result.statements.map((statement) => `${statement}\n;\n`).join('\n'));
    if (result.tables.length === 0) return text('no change-event triggers are installed and no table emits events: nothing to drop\n');
    const verb = flags.uninstall ? 'dropped the change-event triggers (where there were any) of' : 'installed change-event triggers on';
    return text(`${verb} ${result.tables.length} table(s): ${result.tables.join(', ')} (${result.statements.length} statements)\n`);
  },
  {json: ({options: flags}) => flags.raw},
);
