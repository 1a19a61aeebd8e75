import {existsSync, mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {startOAuthProvider, type OAuthProvider} from '../../../fixtures/oauth-provider/provider.js';
import {makeSandbox, runCli, spawnCli, type Sandbox} from '../../helpers/cli.js';

// `workbench connect` and `disconnect` as a user runs them: the built program, $BROWSER set to a
// script that clicks through the consent page, and a local OAuth provider and gateway key exchange.
const BROWSER = resolve(import.meta.dirname, '../../../fixtures/oauth-provider/browser.mjs');
let sandbox: Sandbox;
let provider: OAuthProvider;
let oauthDir: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  sandbox = makeSandbox('wb-connect-');
  provider = await startOAuthProvider();
  oauthDir = join(sandbox.config, 'workbench', 'oauth');
  mkdirSync(oauthDir, {recursive: true});
  // The built-in gateway, pointed at the stand-in (a user would never need this file).
  writeFileSync(
    join(oauthDir, 'gateway.json'),
    JSON.stringify({authorizeUrl: provider.gatewayAuthUrl, tokenUrl: provider.gatewayKeysUrl, redirectPort: 0, baseUrl: `${provider.origin}/api/v1`}),
  );
  writeFileSync(
    join(oauthDir, 'acme.json'),
    JSON.stringify({
      name: 'acme',
      authorizeUrl: provider.authorizeUrl,
      tokenUrl: provider.tokenUrl,
      clientId: 'workbench-test-client',
      scopes: ['model'],
      baseUrl: `${provider.origin}/v1`,
    }),
  );
  env = {...sandbox.env, BROWSER, BROWSER_LOG: join(sandbox.dir, 'browser.log')};
});

afterEach(async () => {
  await provider.close();
  await sandbox.cleanup();
});

const connect = (...args: string[]) => runCli(['connect', ...args], {env});

/** `connect --list` as label → state (columns are two or more spaces apart). */
function states(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/ {2,}/) as [string, string]),
  );
}

describe('workbench connect: a sign-in end to end', () => {
  it('the built-in gateway: browser to /auth with callback_url and an S256 challenge, the code exchanged for a key stored 0600', async () => {
    const result = await connect();
    expect(result.stderr).toContain('Sign in to gateway in your browser. If it does not open, visit:');
    const consent = new URL(result.stderr.split('\n')[1]!);
    expect(consent.origin + consent.pathname).toBe(provider.gatewayAuthUrl);
    expect(consent.searchParams.get('callback_url')).toMatch(/^http:\/\/localhost:\d+\/callback$/);
    expect(consent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(result.stdout).toBe(`Signed in to gateway (the key does not expire); token stored in ${join(oauthDir, 'gateway.token.json')}; used with ${provider.origin}/api/v1\n`);
    expect(result.code).toBe(0);
    const key = provider.state.issued[0]!;
    expect(JSON.parse(readFileSync(join(oauthDir, 'gateway.token.json'), 'utf8'))).toMatchObject({accessToken: key, expiresAt: null});
    expect(statSync(join(oauthDir, 'gateway.token.json')).mode & 0o777).toBe(0o600);
    expect(result.stdout + result.stderr).not.toContain(key);
    // The exchange carried the verifier whose S256 the stand-in checked against the challenge.
    const exchange = provider.state.requests.find((request) => request.path === '/api/v1/auth/keys')!;
    expect(JSON.parse(exchange.body)).toMatchObject({code: expect.stringMatching(/^gwcode-/), code_verifier: expect.any(String), code_challenge_method: 'S256'});
    // The browser was shown the "close this tab" page by the listener.
    expect(readFileSync(join(sandbox.dir, 'browser.log'), 'utf8')).toMatch(/^200 http:\/\/localhost:\d+\/callback\?code=/m);
  });

  it('a provider with a client id: authorization code + PKCE, state checked, expiry shown as UTC, listed afterwards', async () => {
    const result = await connect('--provider', 'acme', '--json');
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as {provider: string; expiresAt: string; baseUrl: string};
    expect(answer).toMatchObject({provider: 'acme', baseUrl: `${provider.origin}/v1`});
    expect(answer.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const token = new URLSearchParams(provider.state.requests.find((request) => request.path === '/token')!.body);
    expect(token.get('grant_type')).toBe('authorization_code');
    expect(token.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const list = await connect('--list');
    expect(states(list.stdout)).toEqual({acme: `signed in, expires ${answer.expiresAt}`, 'gateway (built in)': 'not signed in'});
  });

  it('a headless machine: the opener fails, the URL is printed, and visiting it by hand completes the sign-in', async () => {
    const child = spawnCli(['connect', '--provider', 'acme', '--timeout-seconds', '20'], {env: {...env, BROWSER: join(sandbox.dir, 'no-such-browser')}});
    let stderr = '';
    let stdout = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const url = await new Promise<string>((resolveUrl) =>
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const match = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(stderr);
        if (match && stderr.includes('Could not open a browser')) resolveUrl(match[1]!);
      }),
    );
    expect(stderr).toContain('no-such-browser: ENOENT');
    // The user pastes the address into a browser elsewhere: the same clicks the fixture script makes.
    let next: string | undefined = url;
    while (next) {
      const response: Response = await fetch(next, {redirect: 'manual'});
      await response.arrayBuffer();
      next = response.headers.get('location') ?? undefined;
    }
    const code = await new Promise((done) => child.on('close', done));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Signed in to acme \(expires \S+Z\)/);
  });
});

describe('workbench connect: what goes wrong', () => {
  it('a redirect with the wrong state is refused and nothing is stored', async () => {
    provider.setMode('wrong-state');
    const result = await connect('--provider', 'acme');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('workbench: acme: the redirect carried the wrong state (a stale browser tab, or a redirect this run did not start); nothing was stored');
    expect(existsSync(join(oauthDir, 'acme.token.json'))).toBe(false);
    expect(provider.state.requests.some((request) => request.path === '/token')).toBe(false);
  });

  it('an error parameter is shown', async () => {
    provider.setMode('deny');
    const result = await connect('--provider', 'acme');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('workbench: acme: the provider did not grant the sign-in: access_denied (The user said no)\n');
  });

  it('no redirect within the timeout', async () => {
    provider.setMode('never');
    const result = await connect('--provider', 'acme', '--timeout-seconds', '1');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('workbench: no answer from the browser within 1 s; run workbench connect again (--timeout-seconds for longer)\n');
  });

  it('a token file with mode 644 is refused with the reason in --list', async () => {
    expect((await connect()).code).toBe(0);
    const file = join(oauthDir, 'gateway.token.json');
    const {chmodSync} = await import('node:fs');
    chmodSync(file, 0o644);
    const list = await connect('--list');
    expect(states(list.stdout)['gateway (built in)']).toBe(`unusable: ${file} has mode 644; it must be 600 (chmod 600 ${file})`);
  });

  it('garbage flags get one line each, no stack', async () => {
    const cases: Array<[string[], string]> = [
      [['--timeout-seconds', 'soon'], 'workbench: --timeout-seconds must be a whole number, got "soon"'],
      [['--timeout-seconds', '0'], 'workbench: --timeout-seconds must be 1 or more, got 0'],
      [['--provider'], 'workbench: --provider needs a value'],
      [['--provider', '../../etc/passwd'], 'workbench: provider name "../../etc/passwd" must be letters, digits, - or _'],
      [['--provider', 'nope'], `workbench: no provider profile "nope": write ${join(oauthDir, 'nope.json')}`],
      [['--show-example', '--list'], 'workbench: --show-example and --list do not go together'],
      [['--bogus'], "unknown option '--bogus'"],
    ];
    for (const [args, message] of cases) {
      const result = await connect(...args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toContain(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('garbage profile files: each named with its file and field, in --list and on connect', async () => {
    writeFileSync(join(oauthDir, 'broken.json'), '{"name": "broken",');
    writeFileSync(join(oauthDir, 'ftp.json'), JSON.stringify({name: 'ftp', authorizeUrl: 'ftp://x/a', tokenUrl: 'https://x/t', clientId: 'c', baseUrl: 'https://x'}));
    writeFileSync(join(oauthDir, 'gateway.json'), JSON.stringify({redirectPort: -1}));
    const list = await connect('--list');
    const rows = states(list.stdout);
    expect(rows.broken).toMatch(`unusable: ${join(oauthDir, 'broken.json')} is not valid JSON`);
    expect(rows.ftp).toBe(`unusable: ${join(oauthDir, 'ftp.json')}: authorizeUrl must be an http(s) URL`);
    expect(rows['gateway (built in)']).toBe(`unusable: ${join(oauthDir, 'gateway.json')}: redirectPort must be 0 to 65535`);
    const result = await connect('--provider', 'ftp');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`workbench: ${join(oauthDir, 'ftp.json')}: authorizeUrl must be an http(s) URL\n`);
  });
});

describe('--show-example, --list, disconnect', () => {
  it('--show-example prints a profile that works once saved', async () => {
    const example = await connect('--show-example');
    expect(example.code).toBe(0);
    const profile = JSON.parse(example.stdout) as Record<string, unknown>;
    expect(Object.keys(profile)).toEqual(['name', 'authorizeUrl', 'tokenUrl', 'clientId', 'scopes', 'redirectPort', 'redirectPath', 'baseUrl', 'extraHeaders']);
    writeFileSync(join(oauthDir, 'example.json'), example.stdout);
    expect(states((await connect('--list')).stdout).example).toBe('not signed in');
  });

  it('--list --json is the same data', async () => {
    const list = JSON.parse((await connect('--list', '--json')).stdout) as Array<Record<string, unknown>>;
    expect(list).toEqual([
      {name: 'acme', builtIn: false, hasToken: false},
      {name: 'gateway', builtIn: true, hasToken: false},
    ]);
  });

  it('disconnect forgets the token and keeps the profile', async () => {
    expect((await connect('--provider', 'acme')).code).toBe(0);
    const result = await runCli(['disconnect', 'acme'], {env});
    expect(result.stdout).toBe(`Forgot the sign-in for acme (${join(oauthDir, 'acme.token.json')}); the profile stays\n`);
    expect(existsSync(join(oauthDir, 'acme.token.json'))).toBe(false);
    expect(existsSync(join(oauthDir, 'acme.json'))).toBe(true);
    expect((await runCli(['disconnect', 'acme'], {env})).stdout).toBe('No stored sign-in for acme\n');
    const unknown = await runCli(['disconnect', 'nope'], {env});
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('workbench: no provider "nope"');
    expect((await runCli(['disconnect'], {env})).code).toBe(1);
  });
});
