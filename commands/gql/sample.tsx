import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {settingsFlag} from '../../source/cli/gql/gql-flags.js';

export const description =
  "Load the Chinook sample (11 tables, 15,607 rows) into the service's database (default: SQLite in WORKBENCH_HOME) or --db; refuses a database that has tables unless --force";

export const options = z.object({
  db: z
    .string()
    .optional()
    .describe(
      option({
        description: 'Where instead: a SQLite path, postgres://user@host/db, mysql://user@host/db, or Host=…;Database=… (PostgreSQL), Server=…;Database=… (MySQL/MariaDB)',
        valueDescription: 'connection',
      }),
    ),
  ...settingsFlag,
  force: z.boolean().default(false).describe("Load into a database that has tables: the sample's own tables are replaced, the others kept"),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(async ({options: flags}) => {
  const {runGqlSample} = await import('../../source/cli/gql/sample-task.js');
  return runGqlSample(flags);
});
