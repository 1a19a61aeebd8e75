import type {Knex} from 'knex';
import {WorkbenchError} from '../../core/errors.js';
import {dialectOf} from '../dialect/dialect-of.js';
import {introspect} from '../introspect/index.js';
import {loadModel} from '../load-model.js';
import {KEY} from '../metadata/keys.js';
import {parseRules} from '../metadata/parse-rules.js';
import {resolveMetadata} from '../metadata/resolve-metadata.js';
import {connectGql, databaseReadError} from '../settings/connect.js';
import {parseConnectionString} from '../settings/connection-string.js';
import {loadGqlSettings, type LoadGqlSettingsOptions} from '../settings/load-settings.js';
import type {GqlModel, GqlService, GqlSettings, ModelProblem} from '../types.js';
import {Dispatcher, type DispatcherOptions} from './dispatcher.js';
import {outboxDdl} from './outbox-contract.js';
import {OutboxStore} from './outbox-store.js';
import {natsSink} from './sinks/nats.js';
import type {EventSink} from './sinks/sink.js';
import {webhookSink} from './sinks/webhook.js';

/** The default outbox name `gql events init` creates when the rules name none. */
export const DEFAULT_OUTBOX = 'wb_outbox';

export interface OpenedEvents {
  settings: GqlSettings;
  model: GqlModel;
  db: Knex;
  store: OutboxStore;
  close(): Promise<void>;
}

function openDatabase(settings: GqlSettings, poolMax = 4): Knex {
  const connection = parseConnectionString(settings.provider, settings.connectionString);
  return connectGql(connection, dialectOf(settings.provider).pooled ? {pool: {min: 0, max: poolMax}} : {});
}

/** A failure to read the database, in one line (damaged file, unreachable server). */
function readError(settings: GqlSettings, error: unknown): Error {
  return databaseReadError(parseConnectionString(settings.provider, settings.connectionString), error);
}

/** Problems in one line: a command's error is one line on the terminal. */
function problemLines(problems: ModelProblem[]): string {
  return problems.map((problem) => problem.message).join('; ');
}

/** The model's events for `gql events list|replay|retry|dispatch`: a model with problems, or no outbox, is refused with why. */
export async function openEvents(options: LoadGqlSettingsOptions): Promise<OpenedEvents> {
  const settings = loadGqlSettings(options);
  const db = openDatabase(settings);
  try {
    const {model, problems} = await loadModel(db, settings);
    if (problems.length > 0) throw new WorkbenchError('config_invalid', `the GraphQL model has ${problems.length} problem(s): ${problemLines(problems)}`);
    if (!model.events)
      throw new WorkbenchError(
        'config_invalid',
        `no outbox: the metadata rules of ${settings.source} name no outbox-table (set it on :root, with emit-events on the tables that emit)`,
      );
    return {settings, model, db, store: new OutboxStore(db, settings.provider, model.events.outbox), close: () => db.destroy()};
  } catch (error) {
    await db.destroy();
    throw readError(settings, error);
  }
}

/** `schema.table` or `table` (the database's default schema). */
function splitName(name: string, defaultSchema: string): {schema: string; name: string} {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? {schema: defaultSchema, name} : {schema: name.slice(0, dot), name: name.slice(dot + 1)};
}

export interface InitOutboxResult {
  table: string;
  statements: string[];
  /** False with `print`: the statements were shown, not run. */
  applied: boolean;
}

/**
 * `gql events init`: creates the outbox table with the column contract (outbox-contract.ts) —
 * named by `--table`, else by the rules' `outbox-table`, else `wb_outbox` — or, with `print`,
 * shows the statements for a DBA to run. Idempotent (`if not exists`). Works before the model
 * loads: the model refuses to load while its outbox is missing.
 */
export async function initOutbox(options: LoadGqlSettingsOptions & {table?: string; print?: boolean}): Promise<InitOutboxResult> {
  const settings = loadGqlSettings(options);
  const db = openDatabase(settings, 1);
  try {
    const dbModel = await introspect(db, settings.provider);
    const named = options.table?.trim() || resolveMetadata(parseRules(settings.metadata).rules, dbModel).model[KEY.outboxTable]?.trim() || DEFAULT_OUTBOX;
    if (!/^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?$/.test(named)) {
      throw new WorkbenchError('invalid_argument', `outbox table name ${JSON.stringify(named)} must be <table> or <schema>.<table> (letters, digits, _)`);
    }
    const {schema, name} = splitName(named, dbModel.defaultSchema);
    const statements = outboxDdl(settings.provider, schema, name);
    if (!options.print) for (const statement of statements) await db.raw(statement);
    return {table: `${schema}.${name}`, statements, applied: !options.print};
  } catch (error) {
    throw readError(settings, error);
  } finally {
    await db.destroy();
  }
}

/** The sinks `Cdc:*` configures; none is an error for a dispatcher (there would be nowhere to deliver). */
export async function openSinks(settings: GqlSettings, model: GqlModel, options: {webhookTimeoutMs?: number} = {}): Promise<EventSink[]> {
  const sinks: EventSink[] = [];
  if (settings.cdc.webhookUrl) sinks.push(webhookSink({url: settings.cdc.webhookUrl, secrets: model.events?.secrets ?? [], timeoutMs: options.webhookTimeoutMs}));
  if (settings.cdc.natsUrl) {
    try {
      sinks.push(await natsSink(settings.cdc.natsUrl));
    } catch (error) {
      await Promise.all(sinks.map((sink) => sink.close()));
      throw error;
    }
  }
  return sinks;
}

/**
 * The dispatcher a running GraphQL server keeps when its model has an outbox and `Cdc:*` names a
 * sink: woken by every change the service commits, polling for the others' (triggers, other
 * processes). Undefined when there is nothing to deliver to.
 */
export async function startServiceDispatcher(service: GqlService, options: DispatcherOptions = {}): Promise<Dispatcher | undefined> {
  const {settings, model} = service;
  if (!model.events || (!settings.cdc.webhookUrl && !settings.cdc.natsUrl)) return undefined;
  const sinks = await openSinks(settings, model);
  // Connections of its own: in the service's pool its claims and marks queued behind every
  // request in flight, and under write load an event waited seconds to leave. (SQLite keeps the
  // service's: one writer, and `:memory:` is one connection's database.)
  const own = dialectOf(settings.provider).pooled ? openDatabase(settings, 2) : undefined;
  const dispatcher = new Dispatcher(new OutboxStore(own ?? service.db, settings.provider, model.events.outbox), model, sinks, options);
  const unsubscribe = service.onEvents?.(() => dispatcher.wake());
  dispatcher.start();
  const stop = dispatcher.stop.bind(dispatcher);
  dispatcher.stop = async () => {
    unsubscribe?.();
    await stop();
    await own?.destroy();
  };
  return dispatcher;
}
