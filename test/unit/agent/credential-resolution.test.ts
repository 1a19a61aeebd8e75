import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {describeNoCredential} from '../../../source/agent/credentials/describe.js';
import {redact} from '../../../source/agent/credentials/redact.js';
import {namesGateway, resolveCredential} from '../../../source/agent/credentials/resolve.js';
import {writeToken} from '../../../source/agent/signin/token-store.js';
import type {CredentialOptions} from '../../../source/agent/types.js';

// Each test: its own home (other tools' stores), workspace (.env.local) and config folder (sign-ins).
let dir: string;
let home: string;
let cwd: string;
const CLAUDE_TOKEN = 'sk-ant-oat01-THIS-TOKEN-MUST-NEVER-BE-READ';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-cred-'));
  home = join(dir, 'home');
  cwd = join(dir, 'work');
  mkdirSync(home);
  mkdirSync(cwd);
  vi.stubEnv('XDG_CONFIG_HOME', join(dir, 'config'));
});

afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(dir, {recursive: true, force: true});
});

function options(extra: Partial<CredentialOptions> = {}, env: NodeJS.ProcessEnv = {}): CredentialOptions {
  return {discovery: true, cwd, home, env, ...extra};
}

function envLocal(text: string): void {
  writeFileSync(join(cwd, '.env.local'), text);
}

function claudeSignIn(): void {
  mkdirSync(join(home, '.claude'), {recursive: true});
  writeFileSync(
    join(home, '.claude', '.credentials.json'),
    JSON.stringify({claudeAiOauth: {accessToken: CLAUDE_TOKEN, refreshToken: `${CLAUDE_TOKEN}-refresh`, expiresAt: Date.now() + 3600_000}}),
  );
}

/** Every place a secret could show up: the report, and the message a face prints. */
function everything(report: Awaited<ReturnType<typeof resolveCredential>>): string {
  return JSON.stringify({...report, credential: report.credential ? {...report.credential, secret: undefined} : null}) + describeNoCredential(report);
}

describe('the fixed order: the first hit wins', () => {
  // Everything set at once; peeling one source off at a time must reveal the next step.
  const env = {MESSAGES_API_KEY: 'env-key', MESSAGES_AUTH_TOKEN: 'env-token', GATEWAY_API_KEY: 'gw-env', ANTHROPIC_API_KEY: 'sdk-key'};

  it('1. the --api-key argument beats everything', async () => {
    envLocal('MESSAGES_API_KEY=file-key\n');
    const report = await resolveCredential(options({apiKey: 'arg-key', baseUrl: 'https://gw.example.com'}, env));
    expect(report.credential).toMatchObject({step: 'argument', source: '--api-key', kind: 'api-key', secret: 'arg-key'});
    expect(report.tried).toEqual(['--api-key: given']);
  });

  it('2. MESSAGES_API_KEY, then MESSAGES_AUTH_TOKEN as a bearer token', async () => {
    expect((await resolveCredential(options({baseUrl: 'https://gw.example.com'}, env))).credential).toMatchObject({
      step: 'environment',
      source: 'MESSAGES_API_KEY',
      kind: 'api-key',
      secret: 'env-key',
    });
    const {MESSAGES_API_KEY: _key, ...rest} = env;
    const report = await resolveCredential(options({baseUrl: 'https://gw.example.com'}, rest));
    expect(report.credential).toMatchObject({step: 'environment', source: 'MESSAGES_AUTH_TOKEN', kind: 'bearer', secret: 'env-token'});
    expect(report.tried).toEqual(['--api-key: not given', 'MESSAGES_API_KEY: not set', 'MESSAGES_AUTH_TOKEN: set']);
  });

  it('3. a gateway key when --base-url names a gateway: environment first, then .env.local', async () => {
    const report = await resolveCredential(options({baseUrl: 'https://gw.example.com/anthropic'}, {GATEWAY_API_KEY: 'gw-env', ANTHROPIC_API_KEY: 'sdk-key'}));
    expect(report.credential).toMatchObject({step: 'gateway-key', source: 'GATEWAY_API_KEY', kind: 'bearer', secret: 'gw-env'});
    envLocal('GATEWAY_KEY=gw-file\nMESSAGES_API_KEY=file-key\n');
    const fromFile = await resolveCredential(options({baseUrl: 'https://gw.example.com/anthropic'}));
    expect(fromFile.credential).toMatchObject({step: 'gateway-key', source: '.env.local GATEWAY_KEY', secret: 'gw-file'});
  });

  it('3. no gateway key for the messages vendor itself or without --base-url', async () => {
    envLocal('GATEWAY_KEY=gw-file\nMESSAGES_API_KEY=file-key\n');
    for (const baseUrl of [undefined, 'https://api.anthropic.com']) {
      const report = await resolveCredential(options({baseUrl}));
      expect(report.credential).toMatchObject({step: 'env-file', source: '.env.local MESSAGES_API_KEY', secret: 'file-key'});
    }
    expect(namesGateway('https://api.anthropic.com')).toBe(false);
    expect(namesGateway('http://127.0.0.1:4000')).toBe(true);
  });

  it('4. MESSAGES_API_KEY in .env.local (parsed, never executed), ANTHROPIC_API_KEY there as its alias', async () => {
    envLocal('# comment\nexport MESSAGES_API_KEY="file key"\nPWNED=$(touch pwned)\n');
    expect((await resolveCredential(options())).credential).toMatchObject({step: 'env-file', source: '.env.local MESSAGES_API_KEY', kind: 'api-key', secret: 'file key'});
    envLocal('ANTHROPIC_API_KEY=alias-key\n');
    expect((await resolveCredential(options())).credential).toMatchObject({step: 'env-file', source: '.env.local ANTHROPIC_API_KEY', secret: 'alias-key'});
  });

  it("5. another tool's API key (~/.claude.json primaryApiKey); its sign-in token is listed, never read", async () => {
    claudeSignIn();
    writeFileSync(join(home, '.claude.json'), JSON.stringify({numStartups: 3, primaryApiKey: 'store-key'}));
    const report = await resolveCredential(options({}, {ANTHROPIC_API_KEY: 'sdk-key'}));
    expect(report.credential).toMatchObject({step: 'credential-store', source: `${join(home, '.claude.json')} primaryApiKey`, kind: 'api-key', secret: 'store-key'});
    expect(report.skipped).toEqual([expect.objectContaining({provider: 'Claude Code sign-in (claudeAiOauth)', where: join(home, '.claude', '.credentials.json')})]);
    expect(everything(report)).not.toContain(CLAUDE_TOKEN);
  });

  it("6. the SDK's own variables, ANTHROPIC_API_KEY then ANTHROPIC_AUTH_TOKEN", async () => {
    claudeSignIn();
    const report = await resolveCredential(options({}, {ANTHROPIC_API_KEY: 'sdk-key', ANTHROPIC_AUTH_TOKEN: 'sdk-token'}));
    expect(report.credential).toMatchObject({step: 'sdk-default', source: 'ANTHROPIC_API_KEY', kind: 'api-key', secret: 'sdk-key'});
    expect((await resolveCredential(options({}, {ANTHROPIC_AUTH_TOKEN: 'sdk-token'}))).credential).toMatchObject({
      step: 'sdk-default',
      source: 'ANTHROPIC_AUTH_TOKEN',
      kind: 'bearer',
    });
    expect(everything(report)).not.toContain(CLAUDE_TOKEN);
  });

  it('6. then the one stored browser sign-in, used automatically', async () => {
    writeToken('gateway', {accessToken: 'gw-signed-in', expiresAt: null, obtainedAt: '2026-11-23T10:00:00Z'});
    const report = await resolveCredential(options());
    expect(report.credential).toMatchObject({step: 'sign-in', source: 'sign-in gateway', kind: 'bearer', secret: 'gw-signed-in'});
    expect(report.credential?.signIn).toMatchObject({provider: 'gateway', expiresAt: null, baseUrl: 'https://openrouter.ai/api/v1', refreshed: false});
    expect(report.tried.at(-1)).toBe('stored sign-in: gateway');
  });

  it('6. several stored sign-ins and no --oauth-provider: an error naming them and the flag', async () => {
    mkdirSync(join(dir, 'config', 'workbench', 'oauth'), {recursive: true});
    writeFileSync(
      join(dir, 'config', 'workbench', 'oauth', 'acme.json'),
      JSON.stringify({
        name: 'acme',
        authorizeUrl: 'https://a.example/auth',
        tokenUrl: 'https://a.example/token',
        clientId: 'c',
        baseUrl: 'https://a.example/v1',
        extraHeaders: {'x-acme': '1'},
      }),
    );
    writeToken('gateway', {accessToken: 'gw-signed-in', expiresAt: null, obtainedAt: '2026-11-23T10:00:00Z'});
    writeToken('acme', {accessToken: 'acme-token', expiresAt: '2099-01-01T00:00:00Z', obtainedAt: '2026-11-23T10:00:00Z'});
    await expect(resolveCredential(options())).rejects.toThrow('several stored sign-ins (acme, gateway); choose one with --oauth-provider <name>');
    // --oauth-provider picks one directly, even over the environment; only --api-key comes first.
    const picked = await resolveCredential(options({oauthProvider: 'acme'}, {MESSAGES_API_KEY: 'env-key'}));
    expect(picked.credential).toMatchObject({step: 'sign-in', source: 'sign-in acme', secret: 'acme-token'});
    expect(picked.credential?.signIn).toMatchObject({provider: 'acme', expiresAt: '2099-01-01T00:00:00Z', baseUrl: 'https://a.example/v1', extraHeaders: {'x-acme': '1'}});
    expect((await resolveCredential(options({oauthProvider: 'acme', apiKey: 'arg'}))).credential?.step).toBe('argument');
  });
});

describe('aliases', () => {
  it('OPENROUTER_API_KEY is a gateway key for openrouter.ai only (a key of one gateway is not sent to another)', async () => {
    const env = {OPENROUTER_API_KEY: 'or-key'};
    expect((await resolveCredential(options({baseUrl: 'https://openrouter.ai/api'}, env))).credential).toMatchObject({
      step: 'gateway-key',
      source: 'OPENROUTER_API_KEY',
      secret: 'or-key',
    });
    expect((await resolveCredential(options({baseUrl: 'https://gw.example.com'}, env))).credential).toBeNull();
  });

  it('an empty or blank variable is not set', async () => {
    const report = await resolveCredential(options({}, {MESSAGES_API_KEY: '', MESSAGES_AUTH_TOKEN: '   '}));
    expect(report.credential).toBeNull();
    expect(report.tried.slice(1, 3)).toEqual(['MESSAGES_API_KEY: not set', 'MESSAGES_AUTH_TOKEN: not set']);
  });

  it('an empty --api-key is refused, not skipped', async () => {
    await expect(resolveCredential(options({apiKey: ' '}))).rejects.toThrow('--api-key is empty');
  });

  it('a --base-url that is no URL is refused', async () => {
    await expect(resolveCredential(options({baseUrl: 'not a url'}))).rejects.toThrow('--base-url "not a url" is not a URL');
  });
});

describe('--no-credential-discovery', () => {
  it('skips steps 3 to 5 but not the environment, the SDK variables or a sign-in', async () => {
    envLocal('MESSAGES_API_KEY=file-key\nGATEWAY_KEY=gw-file\n');
    claudeSignIn();
    writeFileSync(join(home, '.claude.json'), JSON.stringify({primaryApiKey: 'store-key'}));
    const report = await resolveCredential(options({discovery: false, baseUrl: 'https://gw.example.com'}));
    expect(report.credential).toBeNull();
    expect(report.skipped).toEqual([]);
    expect(report.tried).toContain('discovery (gateway key, .env.local, other tools): off (--no-credential-discovery)');
    expect((await resolveCredential(options({discovery: false}, {ANTHROPIC_API_KEY: 'sdk-key'}))).credential?.step).toBe('sdk-default');
  });
});

describe('nothing resolves', () => {
  it('says what was tried in order, how to fix it, the skipped sign-ins and the unusable keys (→ workbench acp)', async () => {
    claudeSignIn();
    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'auth.json'), JSON.stringify({OPENAI_API_KEY: 'sk-openai-secret', tokens: {access_token: 'codex-token-secret'}}));
    mkdirSync(join(home, '.gemini'));
    writeFileSync(join(home, '.gemini', 'oauth_creds.json'), '{"access_token":"gemini-token-secret"}');
    envLocal('GEMINI_API_KEY=gemini-key-secret\n');
    const report = await resolveCredential(options({baseUrl: 'https://gw.example.com'}, {OPENAI_API_KEY: 'sk-env-openai'}));
    expect(report.credential).toBeNull();
    expect(report.tried).toEqual([
      '--api-key: not given',
      'MESSAGES_API_KEY: not set',
      'MESSAGES_AUTH_TOKEN: not set',
      'GATEWAY_API_KEY (gateway gw.example.com): not set',
      'GATEWAY_KEY (gateway gw.example.com): not set',
      '.env.local GATEWAY_API_KEY/GATEWAY_KEY: not set',
      '.env.local MESSAGES_API_KEY: not set',
      `other tools: ${join(home, '.claude', '.credentials.json')}: sign-in tokens only (claudeAiOauth), skipped`,
      `other tools: ${join(home, '.codex', 'auth.json')}: an OpenAI key (not usable here); a sign-in token, skipped`,
      `other tools: ${join(home, '.gemini', 'oauth_creds.json')}: a sign-in token, skipped`,
      "ANTHROPIC_API_KEY (the SDK's own variable): not set",
      "ANTHROPIC_AUTH_TOKEN (the SDK's own variable): not set",
      'stored sign-in: none',
    ]);
    expect(report.unusable).toEqual([
      {provider: 'openai', where: 'environment OPENAI_API_KEY'},
      {provider: 'gemini', where: '.env.local GEMINI_API_KEY'},
      {provider: 'openai', where: `${join(home, '.codex', 'auth.json')} OPENAI_API_KEY`},
    ]);
    expect(report.skipped.map((item) => item.provider)).toEqual(['Claude Code sign-in (claudeAiOauth)', 'Codex sign-in (tokens)', 'Gemini CLI sign-in']);
    const message = describeNoCredential(report);
    expect(message).toMatch(/^No credential for the model endpoint\. Tried, in order:\n {2}1\. --api-key: not given\n {2}2\. MESSAGES_API_KEY: not set\n/);
    expect(message).toContain('set MESSAGES_API_KEY');
    expect(message).toContain('pass --api-key <key>');
    expect(message).toContain('workbench connect');
    expect(message).toContain('workbench acp');
    expect(message).toContain(`Claude Code sign-in (claudeAiOauth) in ${join(home, '.claude', '.credentials.json')}: another application's sign-in token: never read`);
    for (const secret of [CLAUDE_TOKEN, 'sk-openai-secret', 'codex-token-secret', 'gemini-token-secret', 'gemini-key-secret', 'sk-env-openai'])
      expect(everything(report)).not.toContain(secret);
  });

  it('an unreadable .env.local or a store that is not JSON is reported, not a crash', async () => {
    // A folder where the file should be: unreadable for root too (tests may run as root).
    mkdirSync(join(cwd, '.env.local'));
    writeFileSync(join(home, '.claude.json'), '{"primaryApiKey": "half-written');
    mkdirSync(join(home, '.claude'));
    writeFileSync(join(home, '.claude', '.credentials.json'), '["claudeAiOauth"]');
    const report = await resolveCredential(options());
    expect(report.tried).toContain(`other tools: ${join(home, '.claude', '.credentials.json')}: not a JSON object, ignored`);
    expect(report.skipped).toEqual([]);
    expect(report.tried).toContain(`.env.local MESSAGES_API_KEY: ${join(cwd, '.env.local')}: cannot read (EISDIR)`);
    expect(report.tried).toContain(`other tools: ${join(home, '.claude.json')}: not a JSON object, ignored`);
    expect(everything(report)).not.toContain('half-written');
  });
});

describe("other tools' stores", () => {
  it('a Codex sign-in without a key is skipped, not unusable; its token is never decoded', async () => {
    mkdirSync(join(home, '.codex'));
    writeFileSync(
      join(home, '.codex', 'auth.json'),
      JSON.stringify({OPENAI_API_KEY: null, tokens: {id_token: 'codex-id-secret', access_token: 'codex-token-secret'}, last_refresh: '2026-11-01'}),
    );
    const report = await resolveCredential(options());
    expect(report.unusable).toEqual([]);
    expect(report.skipped).toEqual([expect.objectContaining({provider: 'Codex sign-in (tokens)'})]);
    expect(report.tried).toContain(`other tools: ${join(home, '.codex', 'auth.json')}: a sign-in token, skipped`);
    expect(everything(report)).not.toContain('codex-token-secret');
  });
});

describe('redact', () => {
  it('replaces every occurrence of each secret, longest first, and leaves tiny strings alone', () => {
    expect(redact('key sk-abc-123 and sk-abc-123-long, a', ['sk-abc-123', 'sk-abc-123-long', 'a', undefined])).toBe('key [redacted] and [redacted], a');
  });
});
