import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {z} from 'zod';
import {WorkbenchError} from '../../core/errors.js';
import {configHome} from '../../core/paths.js';

/**
 * Provider profiles (spec: "OAuth provider profile"): `<config>/workbench/oauth/<name>.json`. The
 * built-in `gateway` provider has OpenRouter's PKCE shape and needs no client id; a `gateway.json`
 * file may override its addresses (that is how tests point it at a local stand-in).
 */
export interface ProviderProfile {
  name: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** Issued by the provider to this application; the gateway provider has none. */
  clientId?: string;
  scopes: string[];
  /** 0: any free port. */
  redirectPort: number;
  redirectPath: string;
  baseUrl: string;
  extraHeaders: Record<string, string>;
  /** `oauth`: RFC 6749 code grant with PKCE; `gateway-key`: the code buys a long-lived API key. */
  flow: 'oauth' | 'gateway-key';
}

export const GATEWAY_PROVIDER = 'gateway';

/** OpenRouter's sign-in: browser to /auth, the code exchanged at /api/v1/auth/keys for a key. It takes a localhost callback on any port. */
const BUILT_IN_GATEWAY: ProviderProfile = {
  name: GATEWAY_PROVIDER,
  authorizeUrl: 'https://openrouter.ai/auth',
  tokenUrl: 'https://openrouter.ai/api/v1/auth/keys',
  scopes: [],
  redirectPort: 0,
  redirectPath: '/callback',
  baseUrl: 'https://openrouter.ai/api/v1',
  extraHeaders: {},
  flow: 'gateway-key',
};

/** A provider name is a file base name: no separators, no dot files. */
/** A provider's name: also its file names under the oauth directory. */
export const PROVIDER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const httpUrl = z.url({protocol: /^https?$/, error: 'must be an http(s) URL'});

const profileSchema = z.strictObject({
  name: z.string().regex(PROVIDER_NAME, 'must be letters, digits, - or _ (it is also the file name)'),
  authorizeUrl: httpUrl,
  tokenUrl: httpUrl,
  clientId: z.string().min(1, 'must not be empty').optional(),
  scopes: z.array(z.string()).default([]),
  redirectPort: z.number().int('must be a whole number').min(0, 'must be 0 to 65535').max(65535, 'must be 0 to 65535').default(0),
  redirectPath: z.string().startsWith('/', 'must start with /').default('/callback'),
  baseUrl: httpUrl,
  extraHeaders: z.record(z.string(), z.string()).default({}),
});

/** The gateway override: any field of the built-in profile may be replaced, none is required. */
const gatewayOverrideSchema = profileSchema.partial();

export function oauthDirectory(): string {
  return join(configHome(), 'oauth');
}

export function profilePath(name: string): string {
  return join(oauthDirectory(), `${name}.json`);
}

/** Refuses a name that is no file base name (`../x`, empty) before it reaches a path. */
export function checkProviderName(name: string): string {
  if (!PROVIDER_NAME.test(name)) throw new WorkbenchError('invalid_argument', `provider name "${name}" must be letters, digits, - or _`);
  return name;
}

/** The profile of a provider: its file, the built-in gateway (with its file's overrides), or not_found naming the file to write. */
export function loadProfile(name: string): ProviderProfile {
  checkProviderName(name);
  const path = profilePath(name);
  const file = existsSync(path) ? readProfileFile(path) : undefined;
  if (name === GATEWAY_PROVIDER) {
    const override = file === undefined ? {} : parseWith(gatewayOverrideSchema, file, path);
    return checkTransport({...BUILT_IN_GATEWAY, ...override, name: GATEWAY_PROVIDER, flow: 'gateway-key'}, path);
  }
  if (file === undefined) {
    throw new WorkbenchError('not_found', `no provider profile "${name}": write ${path} (workbench connect --show-example prints one), or use the built-in provider "gateway"`);
  }
  const profile = parseWith(profileSchema, file, path);
  if (profile.name !== name) throw new WorkbenchError('config_invalid', `${path}: name is "${profile.name}" but the file is named for "${name}"`);
  if (!profile.clientId) throw new WorkbenchError('config_invalid', `${path}: clientId is required (the provider issues it to this application; none is built in)`);
  return checkTransport({...profile, flow: 'oauth'}, path);
}

/** Codes, tokens and keys cross these addresses: https, or plain http on this machine only (a local stand-in). Checked before the browser opens. */
function checkTransport(profile: ProviderProfile, path: string): ProviderProfile {
  for (const field of ['authorizeUrl', 'tokenUrl', 'baseUrl'] as const) {
    const url = new URL(profile[field]);
    if (url.protocol !== 'https:' && !isLoopback(profile[field])) failProfile(path, `${field} must be https (plain http is allowed on 127.0.0.1 and localhost only)`);
  }
  return profile;
}

export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

function readProfileFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new WorkbenchError('config_invalid', `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new WorkbenchError('config_invalid', `${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** One line naming the file and the first field that is wrong. */
function parseWith<T>(schema: z.ZodType<T>, value: unknown, path: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.join('.') : issue.code === 'unrecognized_keys' ? (issue as {keys?: string[]}).keys?.join(', ') : '';
  // Our messages read on from the field (`redirectPort must be …`); zod's own are sentences of their own.
  const what =
    issue.code === 'unrecognized_keys'
      ? `unknown field ${field}`
      : !field
        ? issue.message
        : issue.message.startsWith('must')
          ? `${field} ${issue.message}`
          : `${field}: ${issue.message}`;
  return failProfile(path, what);
}

function failProfile(path: string, what: string): never {
  throw new WorkbenchError('config_invalid', `${path}: ${what}`);
}

/** What `workbench connect --show-example` prints: a profile for a provider that issued this application a client id. */
export function exampleProfile(): string {
  const example = {
    name: 'example',
    authorizeUrl: 'https://auth.example.com/oauth/authorize',
    tokenUrl: 'https://auth.example.com/oauth/token',
    clientId: 'the-client-id-the-provider-issued-you',
    scopes: ['offline_access'],
    redirectPort: 0,
    redirectPath: '/callback',
    baseUrl: 'https://api.example.com/v1',
    extraHeaders: {},
  };
  return `${JSON.stringify(example, null, 2)}\n`;
}
