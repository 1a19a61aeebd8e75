import {createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTVerifyGetKey} from 'jose';
import {WorkbenchError} from '../../core/errors.js';
import {AddressGuard, type Network} from '../../net/index.js';
import type {GqlSettings, UserContext} from '../types.js';
import {authorityUrl, discoverProvider, fetchText} from './discovery.js';
import {ANONYMOUS, userFromClaims} from './user-context.js';

// Signatures by a key pair only: no HMAC (a public key passed as a shared secret is the classic forgery), never `none`.
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
// How far the provider's clock may be from ours, for exp, nbf and iat (README: Authentication).
export const CLOCK_TOLERANCE_SECONDS = 30;

interface Verifier {
  issuers: string[];
  keys: JWTVerifyGetKey;
}

// One discovery per authority for the process; a failed one is forgotten, so the next request retries.
const verifiers = new Map<string, Promise<Verifier>>();

export interface VerifyOptions {
  /** How names resolve and where sockets go (tests); default the system's. */
  network?: Network;
}

/**
 * The request's user from its `Authorization` header (spec 3, Authentication): with
 * `GqlService:DisableAuth` everyone is anonymous; otherwise a bearer JWT signed by a key of the
 * `JwtSettings:Authority`'s JWKS (found by OIDC discovery, fetched once and cached by jose),
 * issued by that authority, for `JwtSettings:Audience`, unexpired. Anything else is a 401
 * `unauthorized` saying what is wrong; an identity provider that cannot be reached is a 503
 * `identity_provider_unavailable`.
 */
export async function verifyBearer(header: string | undefined, settings: GqlSettings, options: VerifyOptions = {}): Promise<UserContext> {
  if (settings.disableAuth) return ANONYMOUS;
  const {authority, audience} = requireJwtSettings(settings);
  const token = bearerToken(header);
  const verifier = await verifierFor(authority, options.network);
  try {
    const {payload} = await jwtVerify(token, verifier.keys, {
      issuer: verifier.issuers,
      audience,
      algorithms: ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp'],
    });
    // jose checks iat only with a maximum age; a token issued in the future is refused all the same.
    if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) {
      throw new WorkbenchError('unauthorized', `invalid token: it was issued in the future (iat ${new Date(payload.iat * 1000).toISOString()})`);
    }
    return userFromClaims(payload as Record<string, unknown>);
  } catch (error) {
    throw tokenError(error, audience, verifier.issuers[0]!);
  }
}

/** The settings token checks need; a server with auth on and either missing refuses to start (checked again per request for `gql query`). */
export function requireJwtSettings(settings: GqlSettings): {authority: string; audience: string} {
  const {authority, audience} = settings.jwt;
  if (!authority?.trim() || !audience?.trim()) {
    const missing = [!authority?.trim() && 'JwtSettings:Authority', !audience?.trim() && 'JwtSettings:Audience'].filter(Boolean).join(' and ');
    throw new WorkbenchError(
      'config_invalid',
      `${missing} ${missing.includes(' and ') ? 'are' : 'is'} not set in ${settings.source}: set them, or GqlService:DisableAuth to true for a local database`,
    );
  }
  authorityUrl(authority);
  return {authority: authority.trim(), audience: audience.trim()};
}

/** The token of `Authorization: Bearer <token>`, or why there is none. */
export function bearerToken(header: string | undefined): string {
  if (header === undefined || header.trim() === '') throw new WorkbenchError('unauthorized', 'authentication required: send Authorization: Bearer <token>');
  const token = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1];
  if (token === undefined) throw new WorkbenchError('unauthorized', 'the Authorization header must be "Bearer <token>"');
  return token;
}

function verifierFor(authority: string, network: Network | undefined): Promise<Verifier> {
  let verifier = verifiers.get(authority);
  if (verifier === undefined) {
    verifier = discoverProvider(authority, network).then(({issuer, jwksUri, viaPublic}) => {
      const keys = createRemoteJWKSet(jwksUri, {
        // Through the outbound client and its address policy, not global fetch.
        [customFetch]: async (url: string, init: {signal: AbortSignal}) => {
          const text = await fetchText(new URL(url), new AddressGuard({allowPrivate: !viaPublic}, network), init.signal);
          return new Response(text, {status: 200, headers: {'content-type': 'application/json'}});
        },
      });
      // The token's iss must be the discovered issuer exactly (OIDC Core §3.1.3.7): a trailing slash is another issuer.
      return {issuers: [issuer], keys};
    });
    verifiers.set(authority, verifier);
    verifier.catch(() => verifiers.delete(authority));
  }
  return verifier;
}

/** Forgets every discovered provider (tests that restart an issuer on another port). */
export function forgetProviders(): void {
  verifiers.clear();
}

function tokenError(error: unknown, audience: string, issuer: string): WorkbenchError {
  if (error instanceof WorkbenchError) return error;
  const refuse = (why: string) => new WorkbenchError('unauthorized', `invalid token: ${why}`);
  if (error instanceof errors.JWTExpired) {
    const exp = typeof error.payload.exp === 'number' ? ` at ${new Date(error.payload.exp * 1000).toISOString()}` : '';
    return refuse(`it expired${exp}`);
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    const given = error.payload[error.claim];
    const shown = given === undefined ? 'none' : JSON.stringify(given).slice(0, 200);
    if (error.claim === 'aud') return refuse(`its audience is ${shown}, not ${JSON.stringify(audience)}`);
    if (error.claim === 'iss') return refuse(`it was issued by ${shown}, not ${JSON.stringify(issuer)}`);
    if (error.claim === 'nbf') return refuse('it is not valid yet (nbf)');
    if (error.reason === 'missing') return refuse(`it has no "${error.claim}" claim`);
    return refuse(`its "${error.claim}" claim is invalid (${error.message})`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return refuse('its signature does not verify against the identity provider’s keys');
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
    return refuse('it is signed with a key the identity provider does not publish');
  if (error instanceof errors.JOSEAlgNotAllowed) return refuse(`its signature algorithm is not accepted (${ALGORITHMS.join(', ')})`);
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    return new WorkbenchError('identity_provider_unavailable', `cannot verify tokens: the identity provider’s keys could not be read (${error.message}); retry later`);
  }
  if (error instanceof errors.JOSEError) return refuse(`it is not a valid signed JWT (${error.message})`);
  return refuse(`it is not a valid signed JWT (${error instanceof Error ? error.message : String(error)})`);
}
