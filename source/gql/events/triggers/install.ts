import type {Knex} from 'knex';
import {WorkbenchError} from '../../../core/errors.js';
import {dialectOf} from '../../dialect/dialect-of.js';
import {introspect} from '../../introspect/index.js';
import {modelFrom} from '../../load-model.js';
import {connectGql} from '../../settings/connect.js';
import {parseConnectionString} from '../../settings/connection-string.js';
import {loadGqlSettings, type LoadGqlSettingsOptions} from '../../settings/load-settings.js';
import type {GqlModel, GqlSettings, GqlTable} from '../../types.js';
import {installedTriggers} from './detect.js';
import {dropTriggerStatements, triggerProvider, triggerRefusal, triggerStatements} from './index.js';

export interface InstallTriggersOptions extends LoadGqlSettingsOptions {
  /** Show the statements, run nothing. */
  print?: boolean;
  /** Drop the triggers instead. */
  uninstall?: boolean;
  /** Settings already loaded (tests, callers holding them); the settings file is not read then. */
  settings?: GqlSettings;
}

export interface InstallTriggersResult {
  /** The tables (`schema.table`) whose triggers were (or would be) installed, or dropped. */
  tables: string[];
  statements: string[];
  /** False with `print`: the statements were shown, not run. */
  applied: boolean;
}

function openDatabase(settings: GqlSettings): Knex {
  const connection = parseConnectionString(settings.provider, settings.connectionString);
  return connectGql(connection, dialectOf(settings.provider).pooled ? {pool: {min: 0, max: 1}} : {});
}

/** The CLI prints an error on one line: several reasons are joined, not listed. */
const joined = (messages: string[]) => messages.join('; ');

/** The install: every emitting table's triggers (all refused with their reasons if one cannot have them), and stale ones dropped. */
function installStatements(model: GqlModel, installed: Map<string, Set<string>>, source: string): {tables: GqlTable[]; statements: string[]} {
  const emitting = model.tables.filter((table) => table.events);
  if (emitting.length === 0) {
    throw new WorkbenchError(
      'config_invalid',
      `no table emits events in the metadata rules of ${source}: set emit-events on the tables whose changes should be captured (e.g. "<schema>.orders { emit-events: insert, update, delete; }") and outbox-table on :root`,
    );
  }
  const refusals = emitting.map((table) => triggerRefusal(model, table)).filter((refusal): refusal is string => refusal !== undefined);
  if (refusals.length > 0) throw new WorkbenchError('invalid_argument', `no trigger installed, ${refusals.length} table(s) cannot have them: ${joined(refusals)}`);
  const statements = emitting.flatMap((table) => triggerStatements(model, table));
  // Triggers on tables that no longer emit would keep writing events nobody asked for.
  for (const table of model.tables) if (!table.events && installed.has(table.key)) statements.push(...dropTriggerStatements(model, table));
  return {tables: emitting, statements};
}

/**
 * `gql events install-triggers`: the database's own capture of writes made by other programs —
 * triggers writing the outbox rows the service writes for its own (see README.md, "Triggers").
 * Idempotent: a re-install drops and recreates. With `uninstall`, every `wb_cdc_` trigger goes.
 * PostgreSQL and SQLite run the statements in one transaction (all or nothing); MariaDB commits
 * each DDL statement on its own, so they run one by one there.
 *
 * The model is built without reading the installed triggers (modelFrom): a model whose triggers
 * are out of date has a problem for the service, and this is what repairs it.
 */
export async function installTriggers(options: InstallTriggersOptions): Promise<InstallTriggersResult> {
  const settings = options.settings ?? loadGqlSettings(options);
  triggerProvider(settings);
  const db = openDatabase(settings);
  try {
    const {model, problems} = modelFrom(await introspect(db, settings.provider), settings.metadata);
    const installed = await installedTriggers(db, settings.provider);
    let tables: GqlTable[];
    let statements: string[];
    if (options.uninstall) {
      // Whatever is installed goes, whether or not the rules (even broken ones) still name the table.
      tables = model.tables.filter((table) => table.events || installed.has(table.key));
      statements = tables.flatMap((table) => dropTriggerStatements(model, table));
    } else {
      if (problems.length > 0)
        throw new WorkbenchError(
          'config_invalid',
          `the GraphQL model has ${problems.length} problem(s) (see \`workbench gql check\`): ${joined(problems.map((problem) => problem.message))}`,
        );
      ({tables, statements} = installStatements(model, installed, settings.source));
    }
    if (!options.print) {
      if (!dialectOf(settings.provider).transactionalDdl) for (const statement of statements) await db.raw(statement);
      else
        await db.transaction(async (trx) => {
          for (const statement of statements) await trx.raw(statement);
        });
    }
    return {tables: tables.map((table) => table.key), statements, applied: !options.print};
  } finally {
    await db.destroy();
  }
}
