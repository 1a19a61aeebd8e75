import {WorkbenchError} from '../../core/errors.js';
import {openGqlClient} from '../../gql/client/index.js';
import type {GqlExecuteResult, GqlService, GqlSettings} from '../../gql/types.js';
import type {CommandResult} from '../command-output.js';

export {GRAPHQL_SERVICE} from '../../gql/client/index.js';

export interface GqlQueryFlags {
  variables?: string;
  settings?: string;
  claims?: string;
  raw?: boolean;
}

export interface GqlQueryDeps {
  loadSettings(file: string | undefined): GqlSettings;
  openService(settings: GqlSettings): Promise<GqlService>;
  /** The running server's GraphQL URL for these settings, if one takes the request (default: runningGqlServer, the service registry). */
  findServer?(settings: GqlSettings): Promise<string | URL | undefined>;
}

/**
 * `workbench gql query`: runs one query through the GraphQL client (source/gql/client): the
 * running GraphQL server of the same settings, else in-process on a service opened for it — the
 * same JSON either way. With `--claims` it always runs in-process as a user holding those claims
 * (a server takes claims only from a signed token). Prints the data as indented JSON and each
 * error on its own line, or with `--raw` the result exactly; exits 1 when there are errors.
 */
export async function runGqlQuery(query: string, flags: GqlQueryFlags, deps: GqlQueryDeps): Promise<CommandResult> {
  if (query.trim() === '') throw new WorkbenchError('invalid_argument', 'the query is empty; e.g. workbench gql query "{ artist(limit: 5) { data { name } } }"');
  const variables = jsonObject(flags.variables, '--variables');
  const claims = jsonObject(flags.claims, '--claims');
  if (flags.settings !== undefined && flags.settings.trim() === '') throw new WorkbenchError('invalid_argument', '--settings is empty');
  const settings = deps.loadSettings(flags.settings);
  const findServer = deps.findServer;
  const client = await openGqlClient(settings, {
    ...(claims !== undefined ? {claims} : {}),
    openService: (loaded) => deps.openService(loaded),
    ...(findServer ? {findServer: (loaded: GqlSettings, caller: {claims?: unknown}) => (caller.claims === undefined ? findServer(loaded) : Promise.resolve(undefined))} : {}),
  });
  try {
    return present(await client.execute({query, ...(variables ? {variables} : {})}), flags.raw === true);
  } finally {
    await client.close();
  }
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

function present(result: GqlExecuteResult, raw: boolean): CommandResult {
  const errors = result.errors ?? [];
  const exitCode = errors.length > 0 ? 1 : 0;
  if (raw) return {stdout: `${JSON.stringify(result)}\n`, exitCode};
  const stdout = result.data === undefined || result.data === null ? '' : `${JSON.stringify(result.data, null, 2)}\n`;
  const hints = new Set(errors.map((error) => error.extensions?.hint).filter((hint): hint is string => typeof hint === 'string'));
  const stderr =
    errors.map((error) => `error: ${oneLine(error.message)}${error.path?.length ? ` (at ${error.path.join('.')})` : ''}\n`).join('') +
    [...hints].map((hint) => `hint: ${oneLine(hint)}\n`).join('');
  return {stdout, stderr, exitCode};
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
