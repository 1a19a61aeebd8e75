import {WorkbenchError} from '../../core/errors.js';
import {ANONYMOUS, userFromClaims} from '../../gql/auth/index.js';
import type {GqlExecuteResult, GqlService, GqlSettings} from '../../gql/types.js';
import {findService} from '../../services/registry.js';
import {httpCall, NoAnswerError} from '../../services/http-call.js';
import type {CommandResult} from '../command-output.js';

/** The registry name `workbench serve graphql` announces itself under. */
export const GRAPHQL_SERVICE = 'graphql';

export interface GqlQueryFlags {
  variables?: string;
  settings?: string;
  claims?: string;
  raw?: boolean;
}

export interface GqlQueryDeps {
  loadSettings(file: string | undefined): GqlSettings;
  openService(settings: GqlSettings): Promise<GqlService>;
  /** The running server's GraphQL URL for these settings, if one runs (default: the service registry). */
  findServer?(settings: GqlSettings): Promise<string | undefined>;
}

const SERVER_TIMEOUT_MS = 120_000;

/**
 * `workbench gql query`: runs one query against the running GraphQL server of the same settings
 * (the service registry's `graphql` entry), else in-process on a service opened for it. With
 * `--claims` it always runs in-process as a user holding those claims (a server takes claims only
 * from a signed token). Prints the data as indented JSON and each error on its own line, or with
 * `--raw` the result exactly; exits 1 when there are errors.
 */
export async function runGqlQuery(query: string, flags: GqlQueryFlags, deps: GqlQueryDeps): Promise<CommandResult> {
  if (query.trim() === '') throw new WorkbenchError('invalid_argument', 'the query is empty; e.g. workbench gql query "{ artist(limit: 5) { data { name } } }"');
  const variables = jsonObject(flags.variables, '--variables');
  const claims = jsonObject(flags.claims, '--claims');
  if (flags.settings !== undefined && flags.settings.trim() === '') throw new WorkbenchError('invalid_argument', '--settings is empty');
  const settings = deps.loadSettings(flags.settings);
  const server = claims === undefined ? await (deps.findServer ?? registeredServer)(settings) : undefined;
  const result = server === undefined ? await inProcess(settings, query, variables, claims, deps) : await overHttp(server, query, variables);
  return present(result, flags.raw === true);
}

export function jsonObject(text: string | undefined, flag: string): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new WorkbenchError('invalid_argument', `${flag} is not JSON (${(error as Error).message}); e.g. ${flag} '{"id": 1}'`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new WorkbenchError('invalid_argument', `${flag} must be a JSON object, e.g. ${flag} '{"id": 1}'`);
  return value as Record<string, unknown>;
}

/**
 * The GraphQL URL of a live `serve graphql` started with the same settings file — unless it checks
 * tokens: the CLI holds none, and in-process it reads the same database with the same settings.
 */
async function registeredServer(settings: GqlSettings): Promise<string | undefined> {
  const entry = await findService(GRAPHQL_SERVICE);
  if (entry === undefined || entry.settings !== settings.source || entry.auth !== false || typeof entry.path !== 'string') return undefined;
  return `${entry.url}${entry.path}`;
}

async function inProcess(settings: GqlSettings, query: string, variables: Record<string, unknown> | undefined, claims: Record<string, unknown> | undefined, deps: GqlQueryDeps) {
  const service = await deps.openService(settings);
  try {
    return await service.execute({query, variables, user: claims === undefined ? ANONYMOUS : userFromClaims(claims)});
  } finally {
    await service.close();
  }
}

async function overHttp(url: string, query: string, variables: Record<string, unknown> | undefined): Promise<GqlExecuteResult> {
  let answer;
  try {
    answer = await httpCall(new URL(url), {
      method: 'POST',
      headers: {'content-type': 'application/json', accept: 'application/graphql-response+json, application/json'},
      body: JSON.stringify({query, ...(variables ? {variables} : {})}),
      timeoutMs: SERVER_TIMEOUT_MS,
    });
  } catch (error) {
    throw new WorkbenchError('daemon_not_connected', `the GraphQL server at ${url} did not answer: ${error instanceof NoAnswerError ? error.reason : String(error)}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new WorkbenchError('internal', `the GraphQL server at ${url} answered ${answer.status} without JSON`);
  }
  const record = (typeof body === 'object' && body !== null ? body : {}) as {data?: unknown; errors?: unknown; error?: {message?: string}};
  // The server kit's own refusals (Host, body size) come as {error: {code, message}}.
  if (record.error && typeof record.error.message === 'string') return {errors: [{message: record.error.message}]};
  if (!('data' in record) && !Array.isArray(record.errors))
    throw new WorkbenchError('internal', `the GraphQL server at ${url} answered ${answer.status} with no data and no errors`);
  return record as GqlExecuteResult;
}

function present(result: GqlExecuteResult, raw: boolean): CommandResult {
  const errors = result.errors ?? [];
  const exitCode = errors.length > 0 ? 1 : 0;
  if (raw) return {stdout: `${JSON.stringify(result)}\n`, exitCode};
  const stdout = result.data === undefined || result.data === null ? '' : `${JSON.stringify(result.data, null, 2)}\n`;
  const stderr = errors.map((error) => `error: ${oneLine(error.message)}${error.path?.length ? ` (at ${error.path.join('.')})` : ''}\n`).join('');
  return {stdout, stderr, exitCode};
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
