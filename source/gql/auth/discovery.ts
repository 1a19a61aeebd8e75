import {describeError, WorkbenchError} from '../../core/errors.js';
import {AddressGuard, Deadline, isOutboundError, openRequest, type Network} from '../../net/index.js';
import {isLoopbackUrl} from './loopback.js';

/** What the verifier needs of an OpenID Provider's configuration (OpenID Connect Discovery 1.0 §3). */
export interface ProviderConfiguration {
  issuer: string;
  jwksUri: URL;
  /** Whether the discovery document came from a public address: then the JWKS must be public too. */
  viaPublic: boolean;
}

const TIMEOUT_MS = 5000;
// A discovery document is a few KB; a JWKS a few keys.
export const MAX_DOCUMENT_BYTES = 256 * 1024;

/**
 * Reads `<authority>/.well-known/openid-configuration` through the outbound client and its address
 * policy (source/net): the authority is the user's setting, so a private or loopback address is
 * allowed (a local identity provider), a link-local or cloud metadata address never; and a JWKS
 * address found in a document that came from a public address must itself be public (the policy's
 * rule 3). Plain http is accepted only on loopback: a token key fetched in clear from elsewhere can be swapped.
 */
export async function discoverProvider(authority: string, network?: Network): Promise<ProviderConfiguration> {
  const base = authorityUrl(authority);
  const url = new URL(`${base.href.replace(/\/+$/, '')}/.well-known/openid-configuration`);
  const guard = new AddressGuard({allowPrivate: true}, network);
  const text = await fetchText(url, guard);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw unavailable(authority, `${url.href} is not JSON`);
  }
  const {issuer, jwks_uri: jwksUri} = (typeof document === 'object' && document !== null ? document : {}) as Record<string, unknown>;
  if (typeof jwksUri !== 'string' || jwksUri === '') throw unavailable(authority, `${url.href} has no jwks_uri`);
  let jwks: URL;
  try {
    jwks = new URL(jwksUri);
  } catch {
    throw unavailable(authority, `its jwks_uri ${JSON.stringify(jwksUri.slice(0, 200))} is not a URL`);
  }
  if (jwks.protocol !== 'https:' && !(jwks.protocol === 'http:' && isLoopbackUrl(jwks))) {
    throw unavailable(authority, `its jwks_uri ${jwks.href} is not https (plain http only on loopback)`);
  }
  // The issuer a token must carry is the authority's (the setting), as the discovery document must say too (§4.3).
  const expected = base.href.replace(/\/+$/, '');
  if (typeof issuer === 'string' && issuer.replace(/\/+$/, '') !== expected) {
    throw unavailable(authority, `its discovery document names the issuer ${JSON.stringify(issuer.slice(0, 200))}, not ${expected}`);
  }
  return {issuer: typeof issuer === 'string' ? issuer : expected, jwksUri: jwks, viaPublic: guard.viaPublic};
}

/** GET through the outbound client with the given guard; the body as text, or a clear 503 for anything but 200. */
export async function fetchText(url: URL, guard: AddressGuard, signal?: AbortSignal): Promise<string> {
  const deadline = new Deadline(TIMEOUT_MS, signal);
  try {
    const response = await openRequest(url, {method: 'GET', headers: {accept: 'application/json'}, deadline, guard});
    if (response.status !== 200) {
      response.discard();
      throw unavailable(url.origin, `${url.href} answered ${response.status}`);
    }
    return (await response.read(MAX_DOCUMENT_BYTES, {decompress: true})).toString('utf8');
  } catch (error) {
    if (error instanceof WorkbenchError) throw error;
    throw unavailable(url.origin, isOutboundError(error) ? error.message : describeError(error));
  } finally {
    deadline.release();
  }
}

/** `JwtSettings:Authority` as a URL: http(s), plain http only on loopback. */
export function authorityUrl(authority: string): URL {
  let url: URL;
  try {
    url = new URL(authority);
  } catch {
    throw new WorkbenchError('config_invalid', `JwtSettings:Authority ${JSON.stringify(authority)} is not a URL (e.g. https://login.example.com/realm)`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackUrl(url))) {
    throw new WorkbenchError('config_invalid', `JwtSettings:Authority ${url.href} must be https (plain http only for a loopback address)`);
  }
  if (url.username || url.password || url.search || url.hash)
    throw new WorkbenchError('config_invalid', `JwtSettings:Authority ${url.href} must have no credentials, query or fragment`);
  return url;
}

/** The identity provider cannot be asked: not the token's fault, so 503, and the next request tries again. */
export function unavailable(authority: string, reason: string): WorkbenchError {
  return new WorkbenchError('identity_provider_unavailable', `cannot verify tokens: the identity provider ${authority} is unavailable (${reason}); retry later`);
}
