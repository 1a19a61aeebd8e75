// auth/: a request's bearer token → UserContext (spec 3, Authentication): OIDC discovery from
// JwtSettings:Authority, the JWKS through the outbound client's address policy, jose's checks.
export {verifyBearer, requireJwtSettings, bearerToken, forgetProviders, type VerifyOptions} from './verify-bearer.js';
export {ANONYMOUS, userFromClaims} from './user-context.js';
export {discoverProvider, type ProviderConfiguration} from './discovery.js';
