import type {GqlSettings} from '../types.js';
import {findService, type ServiceEntry} from '../../services/registry.js';

/** The registry name `workbench serve graphql` announces itself under. */
export const GRAPHQL_SERVICE = 'graphql';

/** The endpoint a `serve graphql` entry names: its own `endpoint` field when it wrote one, else `<url><path>` (path default /graphql). */
export function graphqlEndpoint(entry: ServiceEntry): URL {
  const endpoint = typeof entry.endpoint === 'string' ? entry.endpoint : `${entry.url.replace(/\/$/, '')}${typeof entry.path === 'string' ? entry.path : '/graphql'}`;
  return new URL(endpoint);
}

/**
 * The one rule for "a running server, else in-process": the `serve graphql` the service registry
 * names, when it answers its health check, was started with the same settings file, and would
 * take this caller — it checks no tokens, or the caller holds one. Claims (`--claims`) are never
 * sent: a server takes a user only from a signed token, so a caller with claims runs in-process,
 * as does one without a token when the server checks tokens (in-process it reads the same
 * database with the same settings, as the operator).
 */
export async function runningGqlServer(settings: GqlSettings, caller: {token?: string; claims?: Record<string, unknown>} = {}): Promise<URL | undefined> {
  if (caller.claims !== undefined) return undefined;
  const entry = await findService(GRAPHQL_SERVICE);
  if (entry === undefined || entry.settings !== settings.source) return undefined;
  if (entry.auth !== false && caller.token === undefined) return undefined;
  return graphqlEndpoint(entry);
}
