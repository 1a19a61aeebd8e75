import {existsSync} from 'node:fs';
import {WorkbenchError} from '../../core/errors.js';
import {loadModel} from '../load-model.js';
import {connectGql, databaseReadError, sqliteFile} from '../settings/connect.js';
import {parseConnectionString} from '../settings/connection-string.js';
import {loadGqlSettings, type LoadGqlSettingsOptions} from '../settings/load-settings.js';
import type {ConnectionInfo, GqlModel, GqlSettings, ModelProblem} from '../types.js';

export interface ReadModel {
  settings: GqlSettings;
  connection: ConnectionInfo;
  model: GqlModel;
  problems: ModelProblem[];
}

/**
 * Settings read, database opened just long enough to read its tables, model built: what `gql
 * check` and `gql explain-policy` look at. A SQLite file that does not exist is refused rather
 * than created (a check must not leave an empty database behind).
 */
export async function readModel(options: LoadGqlSettingsOptions): Promise<ReadModel> {
  const settings = loadGqlSettings(options);
  const connection = parseConnectionString(settings.provider, settings.connectionString);
  const file = sqliteFile(connection);
  if (file !== undefined && !existsSync(file))
    throw new WorkbenchError('not_found', `the SQLite database ${file} does not exist (${settings.source}); \`workbench gql sample\` creates it with the Chinook sample`);
  const db = connectGql(connection, {pool: {min: 0, max: 1}});
  try {
    const {model, problems} = await loadModel(db, settings);
    return {settings, connection, model, problems};
  } catch (error) {
    throw databaseReadError(connection, error);
  } finally {
    await db.destroy();
  }
}
