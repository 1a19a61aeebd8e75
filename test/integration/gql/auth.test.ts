import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startOidcIssuer, type OidcIssuer} from '../../../fixtures/oidc-issuer/issuer.js';
import {discoverProvider, forgetProviders, userFromClaims, verifyBearer} from '../../../source/gql/auth/index.js';
import {gqlTestSettings} from '../../helpers/gql-test-service.js';

let issuer: OidcIssuer;
beforeAll(async () => {
  issuer = await startOidcIssuer();
});
afterAll(async () => {
  await issuer?.close();
});

describe('claims → user', () => {
  it('roles from roles and role, the audit key from sub, then name, then email', () => {
    expect(userFromClaims({sub: 'u1', roles: ['a', 'b', 7], role: 'c'})).toEqual({
      claims: {sub: 'u1', roles: ['a', 'b', 7], role: 'c'},
      roles: ['a', 'b', 'c'],
      auditKey: 'u1',
      anonymous: false,
    });
    expect(userFromClaims({name: 'Ada', email: 'ada@example.org', role: ['x']})).toMatchObject({roles: ['x'], auditKey: 'Ada'});
    expect(userFromClaims({sub: ' ', email: 'ada@example.org'})).toMatchObject({roles: [], auditKey: 'ada@example.org'});
    expect(userFromClaims({})).toEqual({claims: {}, roles: [], anonymous: false});
  });
});

describe('settings', () => {
  it('DisableAuth: anonymous whatever the header', async () => {
    expect(await verifyBearer('Bearer garbage', gqlTestSettings({disableAuth: true}))).toMatchObject({anonymous: true, roles: []});
  });

  it('auth on without authority or audience is a settings error naming both', async () => {
    await expect(verifyBearer('Bearer x', gqlTestSettings())).rejects.toThrow(/JwtSettings:Authority and JwtSettings:Audience are not set in test settings/);
    await expect(verifyBearer('Bearer x', gqlTestSettings({jwt: {authority: issuer.authority}}))).rejects.toThrow(/JwtSettings:Audience is not set/);
  });

  it('an authority over plain http elsewhere than loopback, or not a URL, is refused', async () => {
    await expect(verifyBearer('Bearer x', gqlTestSettings({jwt: {authority: 'http://login.example.com/realm', audience: 'a'}}))).rejects.toThrow(/must be https/);
    await expect(verifyBearer('Bearer x', gqlTestSettings({jwt: {authority: 'login.example.com', audience: 'a'}}))).rejects.toThrow(/is not a URL/);
  });
});

describe('discovery and the address policy', () => {
  it('reads the issuer and the JWKS address from a loopback provider', async () => {
    const found = await discoverProvider(issuer.authority);
    expect(found.issuer).toBe(issuer.authority);
    expect(found.jwksUri.href).toBe(`${issuer.authority}/protocol/openid-connect/certs`);
    expect(found.viaPublic).toBe(false);
  });

  it('never asks a link-local or cloud metadata address', async () => {
    await expect(discoverProvider('https://169.254.169.254/latest')).rejects.toThrow(/link-local or cloud metadata address/);
    await expect(discoverProvider('https://[fe80::1]/realm')).rejects.toThrow(/link-local/);
  });

  it('a discovery document pointing its JWKS at a metadata address is refused when keys are fetched', async () => {
    const pointing = await startOidcIssuer({jwksUri: 'https://169.254.169.254/keys'});
    try {
      forgetProviders();
      const token = await pointing.mint({sub: 'ada'});
      await expect(verifyBearer(`Bearer ${token}`, gqlTestSettings({jwt: {authority: pointing.authority, audience: 'workbench-api'}}))).rejects.toThrow(
        /identity provider .* is unavailable \(refused 169\.254\.169\.254: it is a link-local or cloud metadata address/,
      );
      const plain = await startOidcIssuer({jwksUri: 'http://keys.example.com/certs'});
      try {
        await expect(discoverProvider(plain.authority)).rejects.toThrow(/jwks_uri http:\/\/keys.example.com\/certs is not https/);
      } finally {
        await plain.close();
      }
    } finally {
      await pointing.close();
    }
  });

  it('an identity provider that is down is a 503 (not the token’s fault)', async () => {
    const gone = await startOidcIssuer();
    const settings = gqlTestSettings({jwt: {authority: gone.authority, audience: 'workbench-api'}});
    const token = await gone.mint({sub: 'ada'});
    await gone.close();
    forgetProviders();
    await expect(verifyBearer(`Bearer ${token}`, settings)).rejects.toMatchObject({
      code: 'identity_provider_unavailable',
      message: expect.stringMatching(/is unavailable .*retry later/),
    });
  });
});
