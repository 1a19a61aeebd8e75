import * as oauth from 'oauth4webapi';
import {WorkbenchError} from '../../core/errors.js';
import {isLoopback, type ProviderProfile} from './profiles.js';
import type {StoredToken} from './token-store.js';

/** The provider as oauth4webapi needs it; a profile names endpoints, not an issuer, so its origin stands in. */
export function authorizationServer(profile: ProviderProfile): oauth.AuthorizationServer {
  return {issuer: new URL(profile.tokenUrl).origin, authorization_endpoint: profile.authorizeUrl, token_endpoint: profile.tokenUrl};
}

export function oauthClient(profile: ProviderProfile): oauth.Client {
  return {client_id: profile.clientId ?? ''};
}

/** oauth4webapi refuses plain http; a provider on this machine (a test's stand-in, a local gateway) is allowed it. */
export function requestOptions(url: string): {[oauth.allowInsecureRequests]: boolean; signal: AbortSignal} {
  return {[oauth.allowInsecureRequests]: isLoopback(url), signal: AbortSignal.timeout(30_000)};
}

/** A token endpoint's answer as it is stored; `expires_in` becomes an absolute UTC time. */
export function toStoredToken(response: oauth.TokenEndpointResponse, previousRefreshToken?: string): StoredToken {
  const now = Date.now();
  return {
    accessToken: response.access_token,
    // A provider that does not rotate refresh tokens omits it from a refresh answer: keep the old one.
    refreshToken: response.refresh_token ?? previousRefreshToken,
    expiresAt: typeof response.expires_in === 'number' ? isoSeconds(now + response.expires_in * 1000) : null,
    obtainedAt: isoSeconds(now),
  };
}

/** `2026-11-24T10:00:00Z`: UTC, whole seconds. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** What went wrong at the token endpoint, in one line a user can act on (never the response body: it may echo secrets). */
export function describeOAuthFailure(error: unknown, what: string, provider: string): WorkbenchError {
  if (error instanceof WorkbenchError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    const detail = error.error_description ? `${error.error}: ${error.error_description}` : error.error;
    return new WorkbenchError('unauthorized', `${provider}: ${what} was refused (${detail})`);
  }
  if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) {
    return new WorkbenchError('unauthorized', `${provider}: ${what} failed: ${error.message}`);
  }
  const cause = (error as {cause?: {code?: string}})?.cause?.code;
  const name = (error as Error)?.name;
  if (name === 'TimeoutError') return new WorkbenchError('request_timeout', `${provider}: ${what} got no answer within 30 s`);
  return new WorkbenchError('page_unreachable', `${provider}: ${what} failed: ${cause ?? (error as Error)?.message ?? String(error)}`);
}
