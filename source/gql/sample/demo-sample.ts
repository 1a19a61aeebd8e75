import {dirname, join} from 'node:path';
import {workbenchHome} from '../../core/paths.js';
import {formatConnectionString, parseConnectionString} from '../settings/connection-string.js';
import {loadGqlSettings} from '../settings/load-settings.js';
import type {GqlSettings} from '../types.js';
import {loadChinook} from './load-chinook.js';

/** The demo's own database, apart from the user's `graphql.sqlite`: `WORKBENCH_HOME/demo/chinook.sqlite`. */
export function demoSampleFile(): string {
  return join(workbenchHome(), 'demo', 'chinook.sqlite');
}

/**
 * The settings `workbench demo` serves its GraphQL pane with: the embedded default's (SQLite, auth
 * off) over the demo's Chinook, loaded the first time (later runs find its tables and keep them).
 */
export async function demoSampleSettings(): Promise<GqlSettings> {
  const file = demoSampleFile();
  const connectionString = formatConnectionString([['Data Source', file]]);
  await loadChinook(parseConnectionString('sqlite', connectionString), {existing: 'keep'});
  // Read where no appsettings.json lies, so the embedded default's rules hold.
  const settings = loadGqlSettings({cwd: dirname(file), env: {GqlService__Provider: 'sqlite', ConnectionStrings__gqlservice: connectionString}});
  return {...settings, source: `the demo's Chinook sample`};
}
