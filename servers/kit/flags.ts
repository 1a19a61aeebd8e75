import {WorkbenchError} from '../../source/core/errors.js';
import {parseInteger} from '../../source/core/parse-number.js';

/** `--port`: 0 (any free port) through 65535. */
export function parsePort(text: string): number {
  const port = parseInteger(text, '--port')!;
  if (port < 0 || port > 65535) throw new WorkbenchError('invalid_argument', `--port must be 0-65535, got ${port}`);
  return port;
}

/** `--host`: an address or a name, without blanks or slashes. */
export function parseHost(text: string): string {
  const host = text.trim();
  if (!host || /[\s/]/.test(host)) throw new WorkbenchError('invalid_argument', `--host: "${text}" is not an address`);
  return host;
}

/** `--public-url`: an http(s) URL, without its trailing slash. */
export function parsePublicUrl(text: string, example = 'https://feeds.example.org'): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WorkbenchError('invalid_argument', `--public-url: "${text}" is not a URL (e.g. ${example})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WorkbenchError('invalid_argument', `--public-url: "${text}" is not an http(s) URL`);
  return url.href.replace(/\/+$/, '');
}
