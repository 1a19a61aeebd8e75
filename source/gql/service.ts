import {execute, getOperationAST, subscribe} from 'graphql';
import type {DocumentNode, ExecutionResult, GraphQLError} from 'graphql';
import type {Knex} from 'knex';
import {WorkbenchError} from '../core/errors.js';
import {dialectOf} from './dialect/dialect-of.js';
import {OutboxStore} from './events/outbox-store.js';
import {OutboxTail} from './events/outbox-tail.js';
import {loadModel} from './load-model.js';
import {statementCanceller} from './query/deadline.js';
import {watchRowEstimates} from './query/row-estimates.js';
import {DocumentCache} from './query/document-cache.js';
import {DEFAULT_SQLITE_READERS, openSqliteReaders} from './query/sqlite-readers/open-readers.js';
import {buildSchema} from './schema/build-schema.js';
import {connectGql, databaseReadError, sqliteFile} from './settings/connect.js';
import {parseConnectionString} from './settings/connection-string.js';
import type {ConnectionInfo, GqlExecuteArgs, GqlExecuteResult, GqlModel, GqlRequestContext, GqlService, GqlSettings, ModelProblem, SentStatement} from './types.js';

export interface OpenGqlServiceOptions {
  /** Reads the model from the opened database (default: introspection shaped by the settings' metadata rules). */
  loadModel?: (db: Knex, settings: GqlSettings, connection: ConnectionInfo) => Promise<{model: GqlModel; problems: ModelProblem[]}>;
  /** Connections in the pool (default 10). */
  poolMax?: number;
  /** Where background failures (the subscriptions' outbox reads) are said; default nowhere. */
  log?: (line: string) => void;
  /**
   * SQLite on a file: reader processes its reads run in, off the service's thread (default 4;
   * 0: every statement on the service's connection, as on `:memory:`).
   */
  sqliteReaders?: number;
}

/** The knex config of a connection: its pool, each new connection given the session the read path needs (the dialect's sessionSetup). */
function knexConfig(connection: ConnectionInfo, poolMax: number): Knex.Config {
  const config: Knex.Config = {...connection.knex};
  const dialect = dialectOf(connection.provider);
  if (!dialect.pooled) return config;
  const pool: Knex.PoolConfig = {min: 0, max: poolMax, ...(connection.knex.pool ?? {})};
  const setup = dialect.sessionSetup;
  if (setup) {
    type Conn = {query(sql: string, done: (error: unknown) => void): void};
    pool.afterCreate = (conn: Conn, done: (error: unknown, conn: Conn) => void) => conn.query(setup, (error) => done(error, conn));
  }
  return {...config, pool};
}

function problemsText(problems: ModelProblem[]): string {
  return problems
    .map((problem) => `- ${problem.target ? `${problem.target}: ` : ''}${problem.message}${problem.rule ? ` (rule ${problem.ruleIndex ?? ''}: ${problem.rule})` : ''}`)
    .join('\n');
}

function plainErrors(errors: readonly GraphQLError[]): GqlExecuteResult['errors'] {
  return errors.map((error) => {
    const json = error.toJSON();
    return {message: json.message, ...(json.path ? {path: json.path} : {}), ...(json.extensions ? {extensions: json.extensions} : {})};
  });
}

/**
 * Opens the GraphQL service: the connection, the model read from the live database, the schema.
 * A model with problems is refused with all of them listed. `execute` answers a request through a
 * cache of parsed and validated documents; with `debug` the SQL it sent is in `extensions.sql`.
 */
export async function openGqlService(settings: GqlSettings, options: OpenGqlServiceOptions = {}): Promise<GqlService> {
  const connection = parseConnectionString(settings.provider, settings.connectionString);
  const db = connectGql(connection, knexConfig(connection, options.poolMax ?? 10));
  // Cancels go over connections of their own: a full pool never keeps an abandoned statement running.
  const cancelDb = dialectOf(connection.provider).runsPooledWithDeadline ? connectGql(connection, {pool: {min: 0, max: 2}}) : undefined;
  const cancelStatement = cancelDb ? statementCanceller(connection.provider, cancelDb) : undefined;
  let model: GqlModel;
  try {
    const loaded = await (options.loadModel ?? ((database: Knex) => loadModel(database, settings)))(db, settings, connection);
    if (loaded.problems.length > 0)
      throw new WorkbenchError('config_invalid', `the GraphQL model has ${loaded.problems.length} problem(s):\n${problemsText(loaded.problems)}`, loaded.problems);
    model = loaded.model;
  } catch (error) {
    await db.destroy();
    await cancelDb?.destroy();
    throw databaseReadError(connection, error);
  }
  const file = sqliteFile(connection);
  const sqliteReaders = file === undefined ? undefined : await openSqliteReaders(db, file, options.sqliteReaders ?? DEFAULT_SQLITE_READERS, options.log);
  const schema = buildSchema(model);
  const documents = new DocumentCache(schema, model);
  const rowEstimates = watchRowEstimates(db, model);
  await rowEstimates.ready;
  // Who hears that a change with events committed: the dispatcher and the subscriptions, woken at once.
  const eventListeners = new Set<() => void>();
  const onEvents = () => {
    for (const listener of eventListeners) listener();
  };
  // `<t>Changed` subscriptions read the outbox as a stream, woken by the same commits.
  const changeFeed = model.events ? new OutboxTail(new OutboxStore(db, model.provider, model.events.outbox), {log: options.log}) : undefined;
  if (changeFeed) eventListeners.add(() => changeFeed.wake());
  const contextFor = (args: GqlExecuteArgs, statements: SentStatement[] | undefined): GqlRequestContext => ({
    model,
    db,
    user: args.user,
    onEvents,
    ...(cancelStatement ? {cancelStatement} : {}),
    ...(sqliteReaders ? {sqliteReaders} : {}),
    ...(args.signal ? {signal: args.signal} : {}),
    ...(changeFeed ? {changeFeed} : {}),
    ...(statements ? {statements} : {}),
  });
  const answerOf = (result: ExecutionResult, statements: SentStatement[] | undefined): GqlExecuteResult => {
    const answer: GqlExecuteResult = {};
    if (result.errors) answer.errors = plainErrors(result.errors);
    if ('data' in result) answer.data = result.data as Record<string, unknown> | null;
    if (statements) answer.extensions = {sql: {count: statements.length, statements}};
    return answer;
  };

  return {
    settings,
    model,
    schema,
    db,
    documents,
    ...(sqliteReaders ? {sqliteReaders} : {}),
    async execute(args: GqlExecuteArgs): Promise<GqlExecuteResult> {
      const prepared = documents.admit(args.query, args.operationName, args.variables);
      if (prepared.errors) return {errors: plainErrors(prepared.errors)};
      const operation = getOperationAST(prepared.document as DocumentNode, args.operationName ?? undefined);
      if (operation?.operation === 'subscription') {
        return {
          errors: [{message: `subscriptions stream: open them over WebSocket (graphql-ws) at ${settings.path}, or in the GraphQL pane`, extensions: {code: 'invalid_argument'}}],
        };
      }
      const statements: SentStatement[] | undefined = args.debug ? [] : undefined;
      const result = (await execute({
        schema,
        document: prepared.document,
        variableValues: args.variables ?? undefined,
        operationName: args.operationName ?? undefined,
        contextValue: contextFor(args, statements),
      })) as ExecutionResult;
      return answerOf(result, statements);
    },
    async subscribe(args: GqlExecuteArgs): Promise<AsyncIterableIterator<GqlExecuteResult> | GqlExecuteResult> {
      const prepared = documents.admit(args.query, args.operationName, args.variables);
      if (prepared.errors) return {errors: plainErrors(prepared.errors)};
      const result = await subscribe({
        schema,
        document: prepared.document as DocumentNode,
        variableValues: args.variables ?? undefined,
        operationName: args.operationName ?? undefined,
        contextValue: contextFor(args, undefined),
      });
      if (!(Symbol.asyncIterator in result)) return answerOf(result, undefined);
      const source = result as AsyncGenerator<ExecutionResult>;
      const mapped: AsyncIterableIterator<GqlExecuteResult> = {
        next: async () => {
          const step = await source.next();
          return step.done ? {value: undefined, done: true} : {value: answerOf(step.value, undefined), done: false};
        },
        return: async () => {
          await source.return(undefined);
          return {value: undefined, done: true};
        },
        [Symbol.asyncIterator]: () => mapped,
      };
      return mapped;
    },
    context: (user) => contextFor({query: '', user}, undefined),
    onEvents(listener: () => void) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    async close() {
      rowEstimates.stop();
      eventListeners.clear();
      await changeFeed?.close();
      await sqliteReaders?.close();
      await db.destroy();
      await cancelDb?.destroy();
    },
  };
}
