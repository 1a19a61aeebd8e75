import {execFile} from 'node:child_process';
import {chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {connect} from '../../../source/agent/signin/connect.js';
import {disconnect} from '../../../source/agent/signin/disconnect.js';
import {listProfiles} from '../../../source/agent/signin/list-profiles.js';
import {exampleProfile, loadProfile} from '../../../source/agent/signin/profiles.js';
import {readToken, tokenPath, writeToken} from '../../../source/agent/signin/token-store.js';
import {signInCredential} from '../../../source/agent/signin/use.js';
import {startOAuthProvider, type OAuthProvider} from '../../../fixtures/oauth-provider/provider.js';

const BROWSER = resolve(import.meta.dirname, '../../../fixtures/oauth-provider/browser.mjs');
let dir: string;
let oauthDir: string;
let provider: OAuthProvider;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-signin-'));
  oauthDir = join(dir, 'config', 'workbench', 'oauth');
  mkdirSync(oauthDir, {recursive: true});
  vi.stubEnv('XDG_CONFIG_HOME', join(dir, 'config'));
  provider = await startOAuthProvider({expiresIn: 60});
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await provider.close();
  rmSync(dir, {recursive: true, force: true});
});

function acmeProfile(extra: Record<string, unknown> = {}): void {
  const profile = {
    name: 'acme',
    authorizeUrl: provider.authorizeUrl,
    tokenUrl: provider.tokenUrl,
    clientId: 'workbench-test-client',
    scopes: ['model'],
    baseUrl: `${provider.origin}/v1`,
    extraHeaders: {'x-acme': 'yes'},
    ...extra,
  };
  writeFileSync(join(oauthDir, 'acme.json'), JSON.stringify(profile));
}

/** The user's browser: the fixture script as a real subprocess, clicking through the consent page. */
function browser(url: string): Promise<void> {
  execFile(process.execPath, [BROWSER, url]);
  return Promise.resolve();
}

const signIn = (name: string) => connect({provider: name, openBrowser: browser, print: () => {}, timeoutMs: 10_000});

describe('token refresh (2 minutes before expiry)', () => {
  it('a token within 2 minutes of expiry is refreshed on use, stored, and flagged', async () => {
    acmeProfile();
    const signedIn = await signIn('acme');
    expect(signedIn.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const first = readToken('acme')!;
    expect(first.accessToken).toBe(provider.state.issued[0]);
    const credential = await signInCredential('acme');
    expect(credential).toMatchObject({step: 'sign-in', kind: 'bearer', secret: provider.state.issued[1]});
    expect(credential?.signIn).toMatchObject({provider: 'acme', refreshed: true, baseUrl: `${provider.origin}/v1`, extraHeaders: {'x-acme': 'yes'}});
    expect(readToken('acme')?.accessToken).toBe(provider.state.issued[1]);
    expect(statSync(tokenPath('acme')).mode & 0o777).toBe(0o600);
    expect(provider.state.requests.filter((request) => request.path === '/token').map((request) => new URLSearchParams(request.body).get('grant_type'))).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
  });

  it('a token far from expiry is used as it is', async () => {
    acmeProfile();
    writeToken('acme', {accessToken: 'still-good', refreshToken: 'rt', expiresAt: '2099-01-01T00:00:00Z', obtainedAt: '2026-11-23T00:00:00Z'});
    const credential = await signInCredential('acme');
    expect(credential).toMatchObject({secret: 'still-good', signIn: {refreshed: false, expiresAt: '2099-01-01T00:00:00Z'}});
    expect(provider.state.requests).toEqual([]);
  });

  it('a refused refresh asks for a new sign-in', async () => {
    acmeProfile();
    await signIn('acme');
    provider.setMode('refuse-refresh');
    await expect(signInCredential('acme')).rejects.toThrow(
      /acme: refreshing the token was refused \(invalid_grant: refresh token revoked\); sign in again: workbench connect --provider acme$/,
    );
  });

  it('an expired token without a refresh token asks for a new sign-in', async () => {
    acmeProfile();
    writeToken('acme', {accessToken: 'old', expiresAt: '2020-01-01T00:00:00Z', obtainedAt: '2020-01-01T00:00:00Z'});
    await expect(signInCredential('acme')).rejects.toThrow('the sign-in for "acme" has expired and holds no refresh token; sign in again: workbench connect --provider acme');
  });
});

describe('token files', () => {
  it('a token file others may read is refused with the reason and the fix', async () => {
    writeToken('gateway', {accessToken: 'gw-key-secret', expiresAt: null, obtainedAt: '2026-11-23T00:00:00Z'});
    chmodSync(tokenPath('gateway'), 0o644);
    const message = `${tokenPath('gateway')} has mode 644; it must be 600 (chmod 600 ${tokenPath('gateway')})`;
    await expect(signInCredential('gateway')).rejects.toThrow(message);
    expect((await listProfiles()).find((item) => item.name === 'gateway')).toMatchObject({hasToken: true, problem: message});
  });

  it('corrupt JSON is refused clearly, without quoting the file', async () => {
    writeFileSync(tokenPath('gateway'), '{"accessToken": "gw-key-secret', {mode: 0o600});
    const error = await signInCredential('gateway').catch((caught: Error) => caught);
    expect((error as Error).message).toMatch(/gateway\.token\.json is not valid JSON( \(position \d+\))?; sign in again: workbench connect --provider gateway$/);
    expect((error as Error).message).not.toContain('gw-key-secret');
    writeFileSync(tokenPath('gateway'), '{"accessToken": 42}', {mode: 0o600});
    await expect(signInCredential('gateway')).rejects.toThrow('gateway.token.json: accessToken is missing or malformed; sign in again');
  });

  it('disconnect forgets the token and keeps the profile', async () => {
    acmeProfile();
    writeToken('acme', {accessToken: 'x', expiresAt: null, obtainedAt: '2026-11-23T00:00:00Z'});
    expect(disconnect('acme')).toMatchObject({provider: 'acme', forgot: true});
    expect(readToken('acme')).toBeNull();
    expect(loadProfile('acme').clientId).toBe('workbench-test-client');
    expect(disconnect('acme').forgot).toBe(false);
    expect(() => disconnect('nope')).toThrow('no provider "nope"');
    expect(() => disconnect('../x')).toThrow('provider name "../x" must be letters, digits, - or _');
  });
});

describe('sign-in faults', () => {
  it("a refused gateway key exchange says so, with the provider's reason, and stores nothing", async () => {
    writeFileSync(join(oauthDir, 'gateway.json'), JSON.stringify({authorizeUrl: provider.gatewayAuthUrl, tokenUrl: provider.gatewayKeysUrl, redirectPort: 0}));
    provider.setMode('refuse-key');
    await expect(signIn('gateway')).rejects.toThrow('gateway: exchanging the code for a key was refused (Invalid code or code_verifier)');
    expect(readToken('gateway')).toBeNull();
  });

  it('a token endpoint that is down is named, not a stack', async () => {
    const down = await startOAuthProvider();
    await down.close();
    acmeProfile({tokenUrl: down.tokenUrl});
    await expect(signIn('acme')).rejects.toThrow(/^acme: exchanging the code for a token failed: ECONNREFUSED$/);
  });

  it('a redirect port in use is named with the fix', async () => {
    const {createServer} = await import('node:net');
    const busy = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    const port = (busy.address() as {port: number}).port;
    acmeProfile({redirectPort: port});
    try {
      await expect(signIn('acme')).rejects.toThrow(`port ${port} on 127.0.0.1 is in use; the sign-in needs it for the redirect (free it, or set redirectPort in the profile)`);
    } finally {
      busy.close();
    }
  });

  it('a plain-http provider off this machine is refused before the browser opens', async () => {
    acmeProfile({tokenUrl: 'http://auth.example.com/token'});
    let opened = false;
    const attempt = connect({provider: 'acme', openBrowser: async () => void (opened = true), print: () => {}, timeoutMs: 10_000});
    await expect(attempt).rejects.toThrow(`${join(oauthDir, 'acme.json')}: tokenUrl must be https (plain http is allowed on 127.0.0.1 and localhost only)`);
    expect(opened).toBe(false);
  });
});

describe('profiles', () => {
  it('the example profile is a valid profile', () => {
    writeFileSync(join(oauthDir, 'example.json'), exampleProfile());
    expect(loadProfile('example')).toMatchObject({name: 'example', flow: 'oauth', redirectPort: 0, redirectPath: '/callback'});
  });

  it('the built-in gateway needs no file; gateway.json overrides its addresses', () => {
    expect(loadProfile('gateway')).toMatchObject({authorizeUrl: 'https://openrouter.ai/auth', tokenUrl: 'https://openrouter.ai/api/v1/auth/keys', flow: 'gateway-key'});
    writeFileSync(join(oauthDir, 'gateway.json'), JSON.stringify({authorizeUrl: provider.gatewayAuthUrl}));
    expect(loadProfile('gateway')).toMatchObject({authorizeUrl: provider.gatewayAuthUrl, tokenUrl: 'https://openrouter.ai/api/v1/auth/keys'});
  });

  it.each([
    ['not JSON', '{name:', /acme\.json is not valid JSON/],
    ['a field of the wrong type', {redirectPort: 'eighty'}, /acme\.json: redirectPort: Invalid input: expected number, received string$/],
    ['a port out of range', {redirectPort: 70000}, /acme\.json: redirectPort must be 0 to 65535$/],
    ['a URL that is not http', {authorizeUrl: 'ftp://x.example/auth'}, /acme\.json: authorizeUrl must be an http\(s\) URL/],
    ['an unknown field', {clientSecret: 's'}, /acme\.json: unknown field clientSecret/],
    ['no client id', {clientId: undefined}, /acme\.json: clientId is required/],
    ['a name other than the file', {name: 'other'}, /acme\.json: name is "other" but the file is named for "acme"/],
    ['headers that are not strings', {extraHeaders: {a: 1}}, /acme\.json: extraHeaders\.a: Invalid input: expected string, received number$/],
  ])('a profile with %s is refused naming the file and field', (_what, change, message) => {
    if (typeof change === 'string') writeFileSync(join(oauthDir, 'acme.json'), change);
    else acmeProfile(change);
    expect(() => loadProfile('acme')).toThrow(message);
  });

  it('an unknown provider says where its profile goes', () => {
    expect(() => loadProfile('nope')).toThrow(`no provider profile "nope": write ${join(oauthDir, 'nope.json')}`);
  });

  it('the token file holds what the provider issued and nothing is printed but the URL', async () => {
    acmeProfile();
    const lines: string[] = [];
    await connect({provider: 'acme', openBrowser: browser, print: (line) => lines.push(line), timeoutMs: 10_000});
    const stored = JSON.parse(readFileSync(tokenPath('acme'), 'utf8')) as Record<string, unknown>;
    expect(stored).toMatchObject({accessToken: provider.state.issued[0], refreshToken: expect.stringMatching(/^rt-/)});
    expect(lines.join('\n')).not.toContain(provider.state.issued[0]);
    const authorize = new URL(lines[1]!);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({response_type: 'code', client_id: 'workbench-test-client', scope: 'model', code_challenge_method: 'S256'});
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  });
});
