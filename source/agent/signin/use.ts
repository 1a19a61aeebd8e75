import * as oauth from 'oauth4webapi';
import {existsSync} from 'node:fs';
import {WorkbenchError} from '../../core/errors.js';
import type {ResolvedCredential} from '../types.js';
import {authorizationServer, describeOAuthFailure, oauthClient, requestOptions, toStoredToken} from './oauth-client.js';
import {listProfiles} from './list-profiles.js';
import {loadProfile} from './profiles.js';
import {readToken, tokenPath, writeToken, type StoredToken} from './token-store.js';

/** Spec limit: a token refreshes itself when within two minutes of expiry. */
export const REFRESH_WINDOW_MS = 2 * 60 * 1000;

/**
 * The stored sign-in as a credential (resolution step 6, or `--oauth-provider` directly). With no
 * provider named: the one stored sign-in, null when there is none, an error naming them when
 * there are several. A token near expiry is refreshed first and says so (`refreshed`).
 */
export async function signInCredential(provider?: string, now = Date.now()): Promise<ResolvedCredential | null> {
  const name = provider ?? (await onlySignIn());
  if (name === undefined) return null;
  const profile = loadProfile(name);
  let token = readToken(name);
  if (!token) throw new WorkbenchError('not_found', `no stored sign-in for "${name}"; run: workbench connect --provider ${name}`);
  let refreshed = false;
  if (token.expiresAt !== null && Date.parse(token.expiresAt) - now <= REFRESH_WINDOW_MS) {
    token = await refresh(name, token);
    refreshed = true;
  }
  return {
    step: 'sign-in',
    source: `sign-in ${name}`,
    kind: 'bearer',
    secret: token.accessToken,
    signIn: {provider: name, expiresAt: token.expiresAt, baseUrl: profile.baseUrl, extraHeaders: profile.extraHeaders, refreshed},
  };
}

/** The name of the one provider with a stored token; undefined for none; several is the user's choice to make. */
async function onlySignIn(): Promise<string | undefined> {
  const stored = (await listProfiles()).filter((item) => existsSync(tokenPath(item.name)));
  if (stored.length === 0) return undefined;
  if (stored.length > 1) {
    const names = stored.map((item) => item.name).join(', ');
    throw new WorkbenchError('invalid_argument', `several stored sign-ins (${names}); choose one with --oauth-provider <name>`);
  }
  return stored[0]!.name;
}

/** refresh_token grant; the new token replaces the old file. A failure asks for a new sign-in. */
async function refresh(name: string, token: StoredToken): Promise<StoredToken> {
  const again = `sign in again: workbench connect --provider ${name}`;
  if (!token.refreshToken) throw new WorkbenchError('unauthorized', `the sign-in for "${name}" has expired and holds no refresh token; ${again}`);
  const profile = loadProfile(name);
  const as = authorizationServer(profile);
  const client = oauthClient(profile);
  let fresh: StoredToken;
  try {
    const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), token.refreshToken, requestOptions(profile.tokenUrl));
    fresh = toStoredToken(await oauth.processRefreshTokenResponse(as, client, response), token.refreshToken);
  } catch (error) {
    throw new WorkbenchError('unauthorized', `${describeOAuthFailure(error, 'refreshing the token', name).message}; ${again}`);
  }
  writeToken(name, fresh);
  return fresh;
}
