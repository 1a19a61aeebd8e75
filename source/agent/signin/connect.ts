import {createHash, timingSafeEqual} from 'node:crypto';
import * as oauth from 'oauth4webapi';
import {WorkbenchError} from '../../core/errors.js';
import {authorizationServer, describeOAuthFailure, isoSeconds, oauthClient, requestOptions, toStoredToken} from './oauth-client.js';
import {startLoopback} from './loopback.js';
import {loadProfile, type ProviderProfile} from './profiles.js';
import {writeToken, type StoredToken} from './token-store.js';

export interface ConnectOptions {
  provider: string;
  /** Opens the consent page; a failure is reported and the printed address stays usable. */
  openBrowser: (url: string) => Promise<void>;
  print: (line: string) => void;
  timeoutMs: number;
}

export interface ConnectResult {
  provider: string;
  /** ISO UTC, or null for a gateway key (it does not expire). */
  expiresAt: string | null;
  baseUrl: string;
  tokenFile: string;
}

/**
 * Browser sign-in (spec: "Browser sign-in"): authorization code with PKCE S256 (RFC 7636) caught
 * on a loopback redirect (RFC 8252). No client secret exists; the verifier proves possession.
 */
export async function connect(options: ConnectOptions): Promise<ConnectResult> {
  const profile = loadProfile(options.provider);
  const verifier = oauth.generateRandomCodeVerifier();
  const challenge = await oauth.calculatePKCECodeChallenge(verifier);
  // The gateway's authorize page does not echo a state; PKCE alone binds its code to this run.
  const state = profile.flow === 'oauth' ? oauth.generateRandomState() : undefined;
  const listener = await startLoopback(profile.redirectPort, profile.redirectPath);
  let token: StoredToken;
  try {
    const url = consentUrl(profile, listener.redirectUri, challenge, state);
    options.print(`Sign in to ${profile.name} in your browser. If it does not open, visit:`);
    options.print(url);
    await options.openBrowser(url).catch((error: unknown) => options.print(`Could not open a browser (${(error as Error)?.message ?? error}); open the address above.`));
    let problem: string | undefined;
    const query = await listener.wait(options.timeoutMs, (answer) => {
      problem = callbackProblem(answer, state);
      return problem === undefined;
    });
    if (problem) throw new WorkbenchError('unauthorized', `${profile.name}: ${problem}`);
    token = profile.flow === 'gateway-key' ? await exchangeForKey(profile, query.get('code')!, verifier) : await exchangeCode(profile, query, listener.redirectUri, verifier);
  } finally {
    await listener.close();
  }
  const tokenFile = writeToken(profile.name, token);
  return {provider: profile.name, expiresAt: token.expiresAt, baseUrl: profile.baseUrl, tokenFile};
}

function consentUrl(profile: ProviderProfile, redirectUri: string, challenge: string, state: string | undefined): string {
  const url = new URL(profile.authorizeUrl);
  if (profile.flow === 'gateway-key') {
    // The gateway's documented callbacks (and every client of it seen) name `localhost`; the
    // listener is still on 127.0.0.1, which a browser reaches for localhost.
    const callback = new URL(redirectUri);
    callback.hostname = 'localhost';
    url.searchParams.set('callback_url', callback.href);
  } else {
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', profile.clientId!);
    url.searchParams.set('redirect_uri', redirectUri);
    if (profile.scopes.length > 0) url.searchParams.set('scope', profile.scopes.join(' '));
    url.searchParams.set('state', state!);
  }
  url.searchParams.set('code_challenge', challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.href;
}

/** Why a redirect cannot be used, or undefined when it carries a code and the expected state. */
function callbackProblem(query: URLSearchParams, state: string | undefined): string | undefined {
  const error = query.get('error');
  if (error !== null) {
    const description = query.get('error_description');
    return `the provider did not grant the sign-in: ${error}${description ? ` (${description})` : ''}`;
  }
  if (state !== undefined && !sameText(query.get('state') ?? '', state)) {
    return 'the redirect carried the wrong state (a stale browser tab, or a redirect this run did not start); nothing was stored. Run workbench connect again';
  }
  if (!query.get('code')) return 'the redirect carried no code; run workbench connect again';
  return undefined;
}

/** Constant time over digests, so neither the content nor the length leaks through timing. */
function sameText(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}

async function exchangeCode(profile: ProviderProfile, query: URLSearchParams, redirectUri: string, verifier: string): Promise<StoredToken> {
  const as = authorizationServer(profile);
  const client = oauthClient(profile);
  try {
    // The state was compared above in constant time; oauth4webapi checks the rest (iss, error).
    const parameters = oauth.validateAuthResponse(as, client, query, oauth.skipStateCheck);
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), parameters, redirectUri, verifier, requestOptions(profile.tokenUrl));
    return toStoredToken(await oauth.processAuthorizationCodeResponse(as, client, response));
  } catch (error) {
    throw describeOAuthFailure(error, 'exchanging the code for a token', profile.name);
  }
}

/** The gateway's own exchange (OpenRouter's shape): the code and verifier buy a user-controlled API key. */
async function exchangeForKey(profile: ProviderProfile, code: string, verifier: string): Promise<StoredToken> {
  let response: Response;
  try {
    response = await fetch(profile.tokenUrl, {
      method: 'POST',
      headers: {'content-type': 'application/json', accept: 'application/json'},
      body: JSON.stringify({code, code_verifier: verifier, code_challenge_method: 'S256'}),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw describeOAuthFailure(error, 'exchanging the code for a key', profile.name);
  }
  const body = (await response.json().catch(() => undefined)) as {key?: unknown; error?: unknown} | undefined;
  if (!response.ok || typeof body?.key !== 'string' || body.key === '') {
    const reason =
      typeof body?.error === 'string'
        ? body.error
        : typeof (body?.error as {message?: unknown})?.message === 'string'
          ? (body!.error as {message: string}).message
          : `HTTP ${response.status}`;
    throw new WorkbenchError('unauthorized', `${profile.name}: exchanging the code for a key was refused (${reason})`);
  }
  return {accessToken: body.key, expiresAt: null, obtainedAt: isoSeconds(Date.now())};
}
