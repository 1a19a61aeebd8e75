import {existsSync, readFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {WorkbenchError} from '../../core/errors.js';
import {workbenchHome} from '../../core/paths.js';
import type {GqlSettings, Provider} from '../types.js';
import {type ConfigEntry, type ConfigTree, entriesUnder, flattenJson, overlayEnvironment} from './config-tree.js';
import {parseProvider} from './provider.js';

export interface LoadGqlSettingsOptions {
  /** A settings file; without one, `appsettings.json` in `cwd` when it exists, else the embedded default. */
  file?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** The embedded default's database: `<WORKBENCH_HOME>/graphql.sqlite`. */
export function defaultGqlDatabase(): string {
  return join(workbenchHome(), 'graphql.sqlite');
}

/** The file the service looks for in the working directory, as a .NET service does. */
export const DEFAULT_SETTINGS_FILE = 'appsettings.json';

/**
 * Reads the GraphQL service's settings (spec 3, "Settings"): a JSON file with the sections
 * `ConnectionStrings`, `GqlService`, `JwtSettings` and `Cdc`, each key overridable by an
 * environment variable in .NET form (`GqlService__Provider`, `GqlService__Metadata__0`).
 *
 * With a file the spec's defaults apply (provider `sqlserver`, auth on, a connection string
 * required). With no file and no `appsettings.json` in the working directory the embedded
 * default is used: SQLite at `<WORKBENCH_HOME>/graphql.sqlite` with auth off — a local service
 * for one developer, which the environment variables can still reshape.
 */
export function loadGqlSettings(options: LoadGqlSettingsOptions = {}): GqlSettings {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const fallback = join(cwd, DEFAULT_SETTINGS_FILE);
  const file = options.file ? resolve(cwd, options.file) : existsSync(fallback) ? fallback : undefined;
  const tree = overlayEnvironment(file ? readSettingsFile(file) : new Map(), env);
  const embedded = file === undefined;
  const read = new SettingsReader(tree);

  const provider = read.provider('GqlService:Provider') ?? (embedded ? 'sqlite' : 'sqlserver');
  const connectionString = read.string('ConnectionStrings:gqlservice') ?? (embedded && provider === 'sqlite' ? `Data Source=${defaultGqlDatabase()}` : undefined);
  if (connectionString === undefined || connectionString.trim() === '') {
    throw new WorkbenchError(
      'config_invalid',
      `ConnectionStrings:gqlservice is required${file ? ` (in ${file} or ConnectionStrings__gqlservice)` : ' (set ConnectionStrings__gqlservice)'}`,
    );
  }
  return {
    provider,
    connectionString,
    path: read.endpointPath('GqlService:Path') ?? '/graphql',
    playground: read.endpointPath('GqlService:Playground') ?? '/',
    disableAuth: read.boolean('GqlService:DisableAuth') ?? embedded,
    metadata: read.stringList('GqlService:Metadata'),
    http3: {enabled: read.boolean('GqlService:Http3:Enabled') ?? false, httpsPort: read.port('GqlService:Http3:HttpsPort') ?? 5001},
    jwt: {authority: read.string('JwtSettings:Authority'), audience: read.string('JwtSettings:Audience')},
    cdc: {webhookUrl: read.string('Cdc:WebhookUrl'), natsUrl: read.string('Cdc:NatsUrl')},
    chat: chatSettings(read),
    source: file ?? 'defaults',
  };
}

/** `GqlService:Chat:*` (source/gql/chat/README.md); unset keys stay unset (the agent's defaults and credential chain fill them). */
function chatSettings(read: SettingsReader): NonNullable<GqlSettings['chat']> {
  const api = read.string('GqlService:Chat:Api');
  if (api !== undefined && api !== 'messages' && api !== 'chat-completions') throw invalid('GqlService:Chat:Api', `must be messages or chat-completions (got "${api}")`);
  const entries = {api, baseUrl: read.string('GqlService:Chat:BaseUrl'), model: read.string('GqlService:Chat:Model'), apiKey: read.string('GqlService:Chat:ApiKey')};
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
}

function readSettingsFile(file: string): ConfigTree {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new WorkbenchError('not_found', `settings file ${file} not found`);
    throw new WorkbenchError('config_invalid', `cannot read settings file ${file}: ${code ?? (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    // .NET's reader accepts a byte-order mark; JSON.parse does not.
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new WorkbenchError('config_invalid', `settings file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new WorkbenchError('config_invalid', `settings file ${file} must hold a JSON object`);
  return flattenJson(parsed);
}

/** Typed reads of a config tree; a value of the wrong type names its key. */
class SettingsReader {
  constructor(private readonly tree: ConfigTree) {}

  private entry(path: string): ConfigEntry | undefined {
    const entry = this.tree.get(path.toLowerCase());
    if (entry === undefined && entriesUnder(this.tree, path).length > 0) throw invalid(path, 'must be a single value, not an object or a list');
    if (entry !== undefined && entry.value !== null && typeof entry.value === 'object') throw invalid(entry.path, 'must be a single value, not an object or a list');
    return entry?.value === null ? undefined : entry;
  }

  string(path: string): string | undefined {
    const entry = this.entry(path);
    if (entry === undefined) return undefined;
    if (typeof entry.value !== 'string') throw invalid(entry.path, `must be a string (got ${describe(entry.value)})`);
    return entry.value;
  }

  boolean(path: string): boolean | undefined {
    const entry = this.entry(path);
    if (entry === undefined) return undefined;
    if (typeof entry.value === 'boolean') return entry.value;
    // Environment variables are strings; .NET reads "true"/"false" in any case.
    if (typeof entry.value === 'string' && /^(true|false)$/i.test(entry.value.trim())) return entry.value.trim().toLowerCase() === 'true';
    throw invalid(entry.path, `must be true or false (got ${describe(entry.value)})`);
  }

  port(path: string): number | undefined {
    const entry = this.entry(path);
    if (entry === undefined) return undefined;
    const value = typeof entry.value === 'string' && /^\s*\d+\s*$/.test(entry.value) ? Number(entry.value) : entry.value;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535)
      throw invalid(entry.path, `must be a port number 1–65535 (got ${describe(entry.value)})`);
    return value;
  }

  provider(path: string): Provider | undefined {
    const text = this.string(path);
    if (text === undefined) return undefined;
    const provider = parseProvider(text);
    if (!provider) throw invalid(this.tree.get(path.toLowerCase())?.path ?? path, `must be sqlserver, postgres, mysql or sqlite (got "${text}")`);
    return provider;
  }

  endpointPath(path: string): string | undefined {
    const text = this.string(path);
    if (text === undefined) return undefined;
    if (!text.startsWith('/') || /[\s?#]/.test(text)) throw invalid(path, `must be a URL path starting with / (got "${text}")`);
    return text;
  }

  /** A list written as a JSON array, or as `Path__0`, `Path__1`… variables; ordered by index. */
  stringList(path: string): string[] {
    const whole = this.tree.get(path.toLowerCase());
    if (whole !== undefined) {
      if (Array.isArray(whole.value) && whole.value.length === 0) return [];
      if (whole.value !== null) throw invalid(whole.path, `must be a list of strings (got ${describe(whole.value)})`);
      return [];
    }
    const items = entriesUnder(this.tree, path).map((entry) => {
      const rest = entry.path.slice(path.length + 1);
      if (!/^\d+$/.test(rest)) throw invalid(entry.path, 'is not a list item: the list holds strings only');
      if (typeof entry.value !== 'string') throw invalid(entry.path, `must be a string (got ${describe(entry.value)})`);
      return {index: Number(rest), value: entry.value};
    });
    return items.sort((a, b) => a.index - b.index).map((item) => item.value);
  }
}

function invalid(path: string, reason: string): WorkbenchError {
  return new WorkbenchError('config_invalid', `${path} ${reason}`);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}
