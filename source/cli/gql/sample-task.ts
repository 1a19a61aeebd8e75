import {loadChinook} from '../../gql/sample/load-chinook.js';
import {chinookTables, sampleQuery, type SampleProvider} from '../../gql/sample/chinook-scripts.js';
import {sampleTarget} from '../../gql/sample/sample-target.js';
import {findService} from '../../services/registry.js';
import type {CommandResult} from '../command-output.js';
import {GRAPHQL_SERVICE} from './query-task.js';

export interface GqlSampleFlags {
  db?: string;
  settings?: string;
  force?: boolean;
}

const PROVIDER_NAMES: Record<SampleProvider, string> = {sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MySQL/MariaDB'};

/** A word for the shell: quoted unless it is plain. */
const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/**
 * `workbench gql sample`: loads Chinook into the service's database (or `--db`), refusing one
 * that has tables unless `--force`, and says how to query it — the settings to give `gql query`
 * when it is not the service's own database, and that a running `serve graphql` of the same
 * settings must be restarted to see the new tables (it reads the schema once, at start).
 */
export async function runGqlSample(flags: GqlSampleFlags): Promise<CommandResult> {
  const target = sampleTarget({db: flags.db, settings: flags.settings});
  const load = await loadChinook(target.connection, {existing: flags.force ? 'replace' : 'refuse'});
  const provider = load.provider;
  const tables = provider === 'postgres' ? `${load.tables.length} tables (snake_case: ${chinookTables('postgres').slice(0, 3).join(', ')}, …)` : `${load.tables.length} tables`;
  const lines = [
    `loaded the Chinook sample into ${load.where} (${PROVIDER_NAMES[provider]}): ${tables}, ${load.rows.toLocaleString('en-US')} rows in ${load.ms < 1000 ? `${load.ms} ms` : `${(load.ms / 1000).toFixed(1)} s`}`,
  ];
  const query = `workbench gql query ${shellWord(sampleQuery(provider))}`;
  if (target.isServiceDatabase) {
    lines.push(`try: ${query}${flags.settings ? ` --settings ${shellWord(flags.settings)}` : ''}`);
    const server = await findService(GRAPHQL_SERVICE).catch(() => undefined);
    if (server && server.settings === target.settingsSource) lines.push(`the running serve graphql (${server.url}) read the schema at its start: restart it to serve the sample`);
  } else {
    const password = /(^|;)\s*(password|pwd)\s*=/i.test(target.connectionString) ? ' (your password where *** is)' : '';
    lines.push(`try: GqlService__Provider=${provider} ConnectionStrings__gqlservice=${shellWord(target.connection.redacted)} ${query}${password}`);
  }
  return {stdout: `${lines.join('\n')}\n`};
}
