import type {FileStorageConfig} from '../types.js';

const S3_PARAMS = new Set(['endpoint', 'region', 'path-style']);

/**
 * A storage config string (`storage`, or the value of `file`) read into its config, or the reason
 * it is not one:
 *
 *   disk                          $WORKBENCH_HOME/gql-files
 *   disk:<dir>                    an absolute directory, or one relative to WORKBENCH_HOME
 *   s3://<bucket>[/<prefix>][?endpoint=<url>&region=<r>&path-style=true]
 *   bucket:<name>;provider:local|s3;prefix:<p>;region:<r>;endpoint:<url>;pathstyle:true
 *                                 upstream's (BifrostQL) spelling, in backticks in a rule (it holds `;`);
 *                                 local is the directory $WORKBENCH_HOME/gql-files/<bucket>[/<prefix>]
 *
 * Credentials never sit in the string (they come from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY),
 * so an endpoint with a user or password in it is refused rather than kept where logs may show it.
 */
export function parseStorageConfig(text: string): FileStorageConfig | string {
  const value = text.trim();
  if (value === 'disk') return {kind: 'disk'};
  if (value.startsWith('disk:')) {
    const dir = value.slice('disk:'.length).trim();
    if (dir === '') return 'disk: needs a directory after the colon (or write just "disk")';
    if (dir.includes('\0')) return 'the directory has a NUL character';
    return {kind: 'disk', dir};
  }
  if (value.startsWith('s3://')) return parseS3(value);
  if (/^(bucket|provider|prefix|region|endpoint|pathstyle|maxsize|mimetypes)\s*:/i.test(value)) return parseUpstream(value);
  return 'is not a storage: write disk, disk:<dir> or s3://<bucket>/<prefix>?endpoint=<url>&region=<region>&path-style=true';
}

function parseS3(value: string): FileStorageConfig | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid s3:// URL';
  }
  if (url.username || url.password) return 'holds credentials: they come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, never the metadata';
  const bucket = url.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) return `bucket "${bucket}" is not an S3 bucket name (3-63 of a-z 0-9 . -)`;
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((part) => part === '..' || part === '.')) return 'the prefix may not hold . or .. segments';
  const unknown = [...url.searchParams.keys()].filter((key) => !S3_PARAMS.has(key));
  if (unknown.length > 0) return `unknown setting${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: s3:// takes endpoint, region, path-style`;
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(endpoint);
    } catch {
      return `endpoint "${endpoint}" is not a URL`;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'endpoint must be http:// or https://';
    if (parsed.username || parsed.password) return 'endpoint holds credentials: they come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, never the metadata';
  }
  const pathStyleText = url.searchParams.get('path-style')?.toLowerCase();
  if (pathStyleText !== undefined && pathStyleText !== 'true' && pathStyleText !== 'false') return 'path-style must be true or false';
  const region = url.searchParams.get('region') ?? undefined;
  return {kind: 's3', bucket, prefix, ...(endpoint ? {endpoint} : {}), ...(region ? {region} : {}), pathStyle: pathStyleText === 'true'};
}

const UPSTREAM_KEYS = new Set(['bucket', 'provider', 'prefix', 'region', 'endpoint', 'pathstyle']);

/** `bucket:uploads;provider:s3;prefix:avatars;endpoint:http://…;pathstyle:true`, as upstream writes a bucket config. */
function parseUpstream(value: string): FileStorageConfig | string {
  const settings = new Map<string, string>();
  for (const segment of value
    .split(';')
    .map((item) => item.trim())
    .filter((item) => item !== '')) {
    const colon = segment.indexOf(':');
    const key = colon < 0 ? segment.toLowerCase() : segment.slice(0, colon).trim().toLowerCase();
    if (colon < 0) return `"${segment}" is not key:value`;
    if (key === 'maxsize' || key === 'mimetypes') return `${key} is not taken here: write ${key === 'maxsize' ? 'max-size' : 'accept'} on the file column`;
    if (!UPSTREAM_KEYS.has(key)) return `unknown setting ${key}: a bucket config takes ${[...UPSTREAM_KEYS].join(', ')}`;
    if (settings.has(key)) return `${key} is written twice`;
    settings.set(key, segment.slice(colon + 1).trim());
  }
  const bucket = settings.get('bucket');
  if (!bucket) return 'names no bucket (bucket:<name>)';
  const provider = (settings.get('provider') ?? 'local').toLowerCase();
  const prefix = settings.get('prefix') ?? '';
  if (provider === 'local') {
    for (const key of ['region', 'endpoint', 'pathstyle']) if (settings.has(key)) return `${key} applies to provider s3, not local`;
    if (!/^[A-Za-z0-9._-]+$/.test(bucket) || bucket === '.' || bucket === '..') return `bucket "${bucket}" is not a directory name (letters, digits, . _ -)`;
    if (prefix.split('/').some((part) => part === '..' || part === '.')) return 'the prefix may not hold . or .. segments';
    return {kind: 'disk', dir: ['gql-files', bucket, ...prefix.split('/').filter((part) => part !== '')].join('/')};
  }
  if (provider !== 's3') return `provider ${provider} is not one: local or s3`;
  const query = new URLSearchParams();
  for (const [key, name] of [
    ['endpoint', 'endpoint'],
    ['region', 'region'],
    ['pathstyle', 'path-style'],
  ] as const)
    if (settings.has(key)) query.set(name, settings.get(key)!);
  return parseS3(`s3://${bucket}/${prefix}${query.size > 0 ? `?${query.toString()}` : ''}`);
}

const UNITS: Record<string, number> = {'': 1, b: 1, kb: 1024, kib: 1024, mb: 1024 ** 2, mib: 1024 ** 2, gb: 1024 ** 3, gib: 1024 ** 3};

/** `max-size`: bytes, or a number with KB/MB/GB (binary: 1 KB = 1024 bytes; KiB/MiB/GiB alike). */
export function parseByteSize(text: string): number | string {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = match ? UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined) return 'must be a number of bytes, or one with KB, MB or GB (10MB)';
  const bytes = Math.floor(Number(match[1]) * unit);
  if (!Number.isSafeInteger(bytes) || bytes <= 0) return 'must be a positive number of bytes';
  return bytes;
}

/** `accept`: each item `type/subtype`, `type/*` or `*\/*`. */
export function parseAccept(items: string[]): string[] | string {
  const bad = items.filter((item) => !/^([a-z0-9][a-z0-9!#$&^_.+-]*|\*)\/([a-z0-9][a-z0-9!#$&^_.+-]*|\*)$/i.test(item) || /^\*\/[^*]/.test(item));
  if (items.length === 0) return 'names no type: write MIME patterns such as image/*, application/pdf';
  if (bad.length > 0) return `${bad.map((item) => JSON.stringify(item)).join(', ')} ${bad.length > 1 ? 'are not MIME patterns' : 'is not a MIME pattern'} (type/subtype or type/*)`;
  return items.map((item) => item.toLowerCase());
}

/** Whether a (sniffed) type is one `accept` lets in. */
export function accepted(accept: string[] | undefined, type: string): boolean {
  if (!accept) return true;
  const [major] = type.split('/');
  return accept.some((pattern) => pattern === '*/*' || pattern === type || pattern === `${major}/*`);
}
