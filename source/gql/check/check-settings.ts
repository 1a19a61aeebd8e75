import type {LoadGqlSettingsOptions} from '../settings/load-settings.js';
import type {ModelProblem, Provider} from '../types.js';
import {readModel} from './read-model.js';

/** What `gql check` reports: where the settings came from, what was served, every problem. */
export interface GqlCheckReport {
  source: string;
  provider: Provider;
  /** The connection string with its password hidden. */
  connection: string;
  /** Connection warnings (TrustServerCertificate=True, ignored keys). */
  warnings: string[];
  rules: number;
  tables: number;
  hiddenTables: number;
  links: number;
  procedures: number;
  problems: ModelProblem[];
}

export async function checkGqlSettings(options: LoadGqlSettingsOptions): Promise<GqlCheckReport> {
  const {settings, connection, model, problems} = await readModel(options);
  return {
    source: settings.source,
    provider: settings.provider,
    connection: connection.redacted,
    warnings: connection.warnings,
    rules: settings.metadata.length,
    tables: model.byName.size,
    hiddenTables: model.tables.filter((table) => table.hidden).length,
    links: model.tables.filter((table) => !table.hidden).reduce((count, table) => count + table.links.length, 0),
    procedures: model.procedures.length,
    problems,
  };
}
