import {readFile} from 'node:fs/promises';
import {resolve} from 'node:path';
import {WorkbenchError} from '../../core/errors.js';
import {CONFIG_FILE, loadProjectConfig, parseProjectConfig, type GatewayBlock} from '../../project/config.js';
import {DEFAULT_POLL_INTERVAL_MS, FEED_NAME_PATTERN, MIN_POLL_INTERVAL_MS, RESERVED_NAMES, type GatewayConfig} from '../types.js';

// Beyond a year is a typo (and past it times stop being dates).
const MAX_POLL_INTERVAL_MS = 365 * 86_400_000;

export interface LoadGatewayConfigOptions {
  /** The project directory: its `.workbench.kdl` is read when no configFile is given. */
  root: string;
  /** `--config <file>`: a KDL file with a `gateway` block (relative to root); it must exist and have the block. */
  configFile?: string;
}

/**
 * The gateway's proxied feeds: from `--config <file>` when given (a missing file or one without a
 * `gateway` block is config_invalid: the user named it for its feeds), else from the project's
 * `.workbench.kdl` (none, or no block: no proxied feeds; channels work without any).
 */
export async function loadGatewayConfig(options: LoadGatewayConfigOptions): Promise<GatewayConfig> {
  if (options.configFile === undefined) {
    const project = await loadProjectConfig(options.root);
    return gatewayConfigOf(project?.gateway, resolve(options.root, CONFIG_FILE));
  }
  if (typeof options.configFile !== 'string' || options.configFile.trim() === '') throw new WorkbenchError('config_invalid', '--config needs a file name');
  const file = resolve(options.root, options.configFile);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${code ?? 'unknown error'})`;
    throw new WorkbenchError('config_invalid', `${file}: ${why}`, {file});
  }
  const block = parseProjectConfig(text, file).gateway;
  if (!block) throw new WorkbenchError('config_invalid', `${file}: no gateway block (expected gateway { feed "<name>" origin="<url>" })`, {file});
  return gatewayConfigOf(block, file);
}

/** The gateway's rules over a parsed block; each error names the file and the feed's line. */
export function gatewayConfigOf(block: GatewayBlock | undefined, file: string): GatewayConfig {
  const fail = (line: number, message: string): never => {
    throw new WorkbenchError('config_invalid', `${file}:${line}: ${message}`, {file, line});
  };
  const feeds = (block?.feeds ?? []).map((entry) => {
    const where = `gateway.feed "${entry.name}"`;
    if (!FEED_NAME_PATTERN.test(entry.name)) {
      fail(entry.line, `${where}: a name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (it is the path /<name>)`);
    }
    if (RESERVED_NAMES.has(entry.name.toLowerCase())) fail(entry.line, `${where}: the name is taken by the gateway's own routes (${[...RESERVED_NAMES].join(', ')})`);
    const pollIntervalMs = entry.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    if (pollIntervalMs < MIN_POLL_INTERVAL_MS) fail(entry.line, `${where}: poll-interval must be at least ${MIN_POLL_INTERVAL_MS / 1000}s`);
    if (pollIntervalMs > MAX_POLL_INTERVAL_MS) fail(entry.line, `${where}: poll-interval must be at most 365d`);
    return {name: entry.name, origin: entry.origin, pollIntervalMs, ...(entry.title === undefined ? {} : {title: entry.title})};
  });
  return {feeds};
}
