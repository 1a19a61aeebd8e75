import type {GqlService, GqlSettings} from '../types.js';
import {runningGqlServer} from './find-server.js';
import type {GqlClient} from './gql-client.js';
import {inProcessGqlClient, type InProcessCaller} from './in-process.js';
import {httpGqlClient} from './over-http.js';

/** The caller's token when a face is given none: what `gql query`, `gql chat` and the panes send a server that checks tokens. */
export const GQL_TOKEN_VARIABLE = 'WORKBENCH_GQL_TOKEN';

export interface OpenGqlClientOptions extends InProcessCaller {
  /** Opens the in-process service when no server takes the request (default openGqlService). */
  openService?: (settings: GqlSettings) => Promise<GqlService>;
  /** The running server for these settings and this caller (default runningGqlServer: the service registry). */
  findServer?: (settings: GqlSettings, caller: InProcessCaller) => Promise<URL | string | undefined>;
}

/**
 * The GraphQL service every face uses (`gql query`, `gql chat`, the GraphQL and Chat panes), as
 * openReader() is the feeds': the running `serve graphql` runningGqlServer() picks, else the
 * service opened in this process. Either answers with the same JSON. The caller is `claims` (always
 * in-process), else `token` (default $WORKBENCH_GQL_TOKEN), else the anonymous operator.
 */
export async function openGqlClient(settings: GqlSettings, options: OpenGqlClientOptions = {}): Promise<GqlClient> {
  const token = 'token' in options ? options.token : process.env[GQL_TOKEN_VARIABLE] || undefined;
  const caller: InProcessCaller = options.claims !== undefined ? {claims: options.claims} : token !== undefined ? {token} : {};
  const server = await (options.findServer ?? runningGqlServer)(settings, caller);
  if (server !== undefined) return httpGqlClient(new URL(server), {token: caller.token});
  const open = options.openService ?? (async (loaded: GqlSettings) => (await import('../service.js')).openGqlService(loaded));
  return inProcessGqlClient(await open(settings), caller);
}
