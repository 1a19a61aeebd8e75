import {WorkbenchError} from '../../core/errors.js';
import type {CredentialOptions, CredentialReport, ResolvedCredential, SecretKind} from '../types.js';
import {readEnvLocal, type EnvFile} from './env-file.js';
import {scanOtherTools, UNUSABLE_KEY_VARIABLES} from './other-tools.js';

/** The messages vendor's own API host; any other base URL is a gateway (step 3). */
export const MESSAGES_VENDOR_HOST = 'api.anthropic.com';

/**
 * The spec's fixed order, first hit wins (types.ts CredentialStep). Variable names and their
 * aliases are tabled in source/agent/README.md. Every step looked at leaves a line in `tried`.
 */
export async function resolveCredential(options: CredentialOptions): Promise<CredentialReport> {
  const report: CredentialReport = {credential: null, tried: [], skipped: [], unusable: []};
  const {env} = options;
  const hit = (credential: ResolvedCredential): CredentialReport => ({...report, credential});

  // 1. The argument.
  if (options.apiKey !== undefined) {
    const key = options.apiKey.trim();
    if (key === '') throw new WorkbenchError('invalid_argument', '--api-key is empty');
    report.tried.push('--api-key: given');
    return hit({step: 'argument', source: '--api-key', kind: 'api-key', secret: key});
  }
  report.tried.push('--api-key: not given');

  // --oauth-provider asks for that sign-in directly (after the argument, before any lookup).
  if (options.oauthProvider !== undefined) {
    const {signInCredential} = await import('../signin/use.js');
    const credential = await signInCredential(options.oauthProvider);
    report.tried.push(`sign-in ${options.oauthProvider}: stored`);
    return hit(credential!);
  }

  // 2. The environment.
  for (const [name, kind] of [
    ['MESSAGES_API_KEY', 'api-key'],
    ['MESSAGES_AUTH_TOKEN', 'bearer'],
  ] as const) {
    const value = envValue(env, name);
    report.tried.push(`${name}: ${value === undefined ? 'not set' : 'set'}`);
    if (value !== undefined) return hit({step: 'environment', source: name, kind, secret: value});
  }

  // 3-5. Discovery.
  if (!options.discovery) {
    report.tried.push('discovery (gateway key, .env.local, other tools): off (--no-credential-discovery)');
  } else {
    const envLocal = readEnvLocal(options.cwd);
    const found = gatewayKey(options, envLocal, report) ?? envFileKey(envLocal, report) ?? otherToolsKey(options, envLocal, report);
    if (found) return hit(found);
  }

  // 6. What the SDK reads by itself, then a stored browser sign-in.
  for (const [name, kind] of [
    ['ANTHROPIC_API_KEY', 'api-key'],
    ['ANTHROPIC_AUTH_TOKEN', 'bearer'],
  ] as const) {
    const value = envValue(env, name);
    report.tried.push(`${name} (the SDK's own variable): ${value === undefined ? 'not set' : 'set'}`);
    if (value !== undefined) return hit({step: 'sdk-default', source: name, kind, secret: value});
  }
  const {signInCredential} = await import('../signin/use.js');
  const signIn = await signInCredential();
  report.tried.push(`stored sign-in: ${signIn ? signIn.signIn!.provider : 'none'}`);
  return signIn ? hit(signIn) : report;
}

/** Whether a base URL names a gateway: any host but the messages vendor's own. */
export function namesGateway(baseUrl: string | undefined): boolean {
  if (baseUrl === undefined) return false;
  return hostOf(baseUrl) !== MESSAGES_VENDOR_HOST;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).hostname.toLowerCase();
  } catch {
    throw new WorkbenchError('invalid_argument', `--base-url "${baseUrl}" is not a URL`);
  }
}

/** Step 3: a gateway key for a gateway base URL, from the environment, then `.env.local`. Gateways take it as a bearer token. */
function gatewayKey(options: CredentialOptions, envLocal: EnvFile, report: CredentialReport): ResolvedCredential | undefined {
  if (options.baseUrl === undefined) {
    report.tried.push('gateway key: no --base-url');
    return undefined;
  }
  const host = hostOf(options.baseUrl);
  if (!namesGateway(options.baseUrl)) {
    report.tried.push(`gateway key: --base-url is the messages API itself (${host})`);
    return undefined;
  }
  // OpenRouter's own variable is used for OpenRouter only: a key of one gateway is not sent to another.
  const names = ['GATEWAY_API_KEY', 'GATEWAY_KEY', ...(host === 'openrouter.ai' || host.endsWith('.openrouter.ai') ? ['OPENROUTER_API_KEY'] : [])];
  for (const name of names) {
    const value = envValue(options.env, name);
    report.tried.push(`${name} (gateway ${host}): ${value === undefined ? 'not set' : 'set'}`);
    if (value !== undefined) return {step: 'gateway-key', source: name, kind: 'bearer', secret: value};
  }
  for (const name of names) {
    const value = fileValue(envLocal, name);
    if (value !== undefined) {
      report.tried.push(`.env.local ${name} (gateway ${host}): set`);
      return {step: 'gateway-key', source: `.env.local ${name}`, kind: 'bearer', secret: value};
    }
  }
  report.tried.push(`.env.local ${names.join('/')}: ${describeFile(envLocal)}`);
  return undefined;
}

/** Step 4: the messages key in the workspace's `.env.local` (ANTHROPIC_API_KEY accepted as its alias there). */
function envFileKey(envLocal: EnvFile, report: CredentialReport): ResolvedCredential | undefined {
  for (const [name, kind] of [
    ['MESSAGES_API_KEY', 'api-key'],
    ['ANTHROPIC_API_KEY', 'api-key'],
  ] as Array<[string, SecretKind]>) {
    const value = fileValue(envLocal, name);
    if (value !== undefined) {
      report.tried.push(`.env.local ${name}: set`);
      return {step: 'env-file', source: `.env.local ${name}`, kind, secret: value};
    }
  }
  report.tried.push(`.env.local MESSAGES_API_KEY: ${describeFile(envLocal)}`);
  return undefined;
}

/** Step 5: other tools' stores; keys for other providers (environment, .env.local, stores) are noted as unusable. */
function otherToolsKey(options: CredentialOptions, envLocal: EnvFile, report: CredentialReport): ResolvedCredential | undefined {
  for (const [name, provider] of Object.entries(UNUSABLE_KEY_VARIABLES)) {
    if (envValue(options.env, name) !== undefined) report.unusable.push({provider, where: `environment ${name}`});
    if (fileValue(envLocal, name) !== undefined) report.unusable.push({provider, where: `.env.local ${name}`});
  }
  const scan = scanOtherTools(options.home);
  report.skipped.push(...scan.skipped);
  report.unusable.push(...scan.unusable);
  report.tried.push(...(scan.looked.length > 0 ? scan.looked.map((line) => `other tools: ${line}`) : ['other tools: no credential stores found']));
  const key = scan.keys[0];
  return key ? {step: 'credential-store', source: key.source, kind: 'api-key', secret: key.secret} : undefined;
}

/** A variable set to nothing (or spaces) is not set. */
function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function fileValue(file: EnvFile, name: string): string | undefined {
  if (!file || !('values' in file)) return undefined;
  const value = file.values[name]?.trim();
  return value ? value : undefined;
}

function describeFile(file: EnvFile): string {
  if (!file) return 'no .env.local in the workspace';
  if ('problem' in file) return `${file.path}: ${file.problem}`;
  return 'not set';
}
